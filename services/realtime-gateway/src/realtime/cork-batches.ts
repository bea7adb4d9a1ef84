import type { Socket as TcpSocket } from 'node:net';

/** What this reads of engine.io's websocket transport and of the `ws` socket under it. */
interface WsTransport {
  send(packets: unknown[]): void;
  socket?: { _socket?: Pick<TcpSocket, 'cork' | 'uncork'> };
}

/**
 * A client's packets that wait together go out in one write. While a send to a client is in flight, engine.io
 * keeps what else is emitted to it and, once the send is done, hands the whole lot to the transport, which writes
 * each packet on its own: a system call (and a TCP segment) per event when a batch of events goes to the same
 * screens. Here that lot goes through the client's TCP socket corked, so it leaves in one write; a packet alone
 * goes as before. A transport that is not the websocket one (or a socket that cannot be corked) is left as it is.
 */
export function corkBatches(conn: { transport?: unknown }): void {
  const transport = conn.transport as Partial<WsTransport> | undefined;
  const tcp = transport?.socket?._socket;
  if (typeof transport?.send !== 'function' || typeof tcp?.cork !== 'function' || typeof tcp.uncork !== 'function') return;
  // one function for every socket (it reads the transport as `this`), not a closure and a bound send per socket
  transport.send = corkedSend;
}

function corkedSend(this: WsTransport, packets: unknown[]): void {
  const send = (Object.getPrototypeOf(this) as WsTransport).send;
  const tcp = this.socket?._socket;
  if (packets.length < 2 || !tcp) return send.call(this, packets);
  tcp.cork();
  try {
    send.call(this, packets);
  } finally {
    tcp.uncork();
  }
}
