/** @jest-environment node */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';

/** A stand-in for socket.io's client socket: records emits, lets the test play the server. */
class FakeSocket {
  connected = false;
  emitted: Array<[string, ...unknown[]]> = [];
  connects = 0;
  private handlers = new Map<string, Set<(...a: unknown[]) => void>>();
  constructor(readonly opts: { auth: (cb: (data: unknown) => void) => void }) {}
  on(event: string, h: (...a: unknown[]) => void) {
    const set = this.handlers.get(event) ?? new Set();
    set.add(h);
    this.handlers.set(event, set);
    return this;
  }
  off(event: string, h: (...a: unknown[]) => void) {
    this.handlers.get(event)?.delete(h);
    return this;
  }
  emit(event: string, ...args: unknown[]) {
    this.emitted.push([event, ...args.filter((a) => typeof a !== 'function')]);
    return this;
  }
  connect() {
    this.connects++;
    return this;
  }
  disconnect() {
    this.connected = false;
    return this;
  }
  /** the server's side */
  fire(event: string, ...args: unknown[]) {
    if (event === 'connect') this.connected = true;
    if (event === 'disconnect') this.connected = false;
    for (const h of this.handlers.get(event) ?? []) h(...args);
  }
  handshakeAuth(): unknown {
    let data: unknown;
    this.opts.auth((d) => (data = d));
    return data;
  }
}

let socket: FakeSocket;
jest.unstable_mockModule('socket.io-client', () => ({
  io: (_url: string, opts: { auth: (cb: (data: unknown) => void) => void }) => (socket = new FakeSocket(opts)),
}));
const { RealtimeClient, HEARTBEAT_MS } = await import('../realtime-client');

let token = 'token-1';
const opened: Array<{ close(): void }> = [];
const flush = () => new Promise((r) => setTimeout(r, 0));

function client(refresh: () => Promise<string | null> = async () => (token = 'token-2')) {
  const onSessionOver = jest.fn();
  const onReconnected = jest.fn();
  const c = new RealtimeClient({ url: 'http://api.test', getToken: () => token, refresh, onSessionOver, onReconnected });
  c.connect();
  opened.push(c);
  return { c, onSessionOver, onReconnected };
}

beforeEach(() => {
  token = 'token-1';
});
afterEach(() => {
  for (const c of opened.splice(0)) c.close();
});

describe('the live socket (spec 01 §4)', () => {
  it('hands the current token to every handshake', () => {
    client();
    expect(socket.handshakeAuth()).toEqual({ token: 'token-1' });
    token = 'token-9';
    expect(socket.handshakeAuth()).toEqual({ token: 'token-9' });
  });

  it('joins its rooms on connect and again after a reconnection', () => {
    const { c, onReconnected } = client();
    c.join('joinNotification');
    c.join('joinTickets', 'pending');
    c.join('joinChatBox', 12);
    socket.fire('connect');
    const joins = () => socket.emitted.filter(([e]) => e.startsWith('join'));
    expect(joins()).toEqual([['joinNotification'], ['joinTickets', 'pending'], ['joinChatBox', 12]]);
    socket.emitted = [];
    socket.fire('disconnect', 'transport close');
    socket.fire('connect');
    expect(joins()).toEqual([['joinNotification'], ['joinTickets', 'pending'], ['joinChatBox', 12]]);
    expect(onReconnected).toHaveBeenCalledTimes(1);
  });

  it('leaves a room when its last user lets go, and does not join it again', () => {
    const { c } = client();
    socket.fire('connect');
    const a = c.join('joinTickets', 'open');
    const b = c.join('joinTickets', 'open');
    expect(socket.emitted.filter(([e]) => e === 'joinTickets')).toHaveLength(1);
    a();
    expect(socket.emitted.filter(([e]) => e === 'leaveTickets')).toHaveLength(0);
    b();
    expect(socket.emitted.filter(([e]) => e === 'leaveTickets')).toEqual([['leaveTickets', 'open']]);
    socket.emitted = [];
    socket.fire('disconnect', 'transport close');
    socket.fire('connect');
    expect(socket.emitted.filter(([e]) => e === 'joinTickets')).toHaveLength(0);
  });

  it('sends userStatus on connect and every 300000 ms', () => {
    jest.useFakeTimers();
    try {
      client();
      socket.fire('connect');
      const beats = () => socket.emitted.filter(([e]) => e === 'userStatus').length;
      expect(beats()).toBe(1);
      jest.advanceTimersByTime(HEARTBEAT_MS - 1);
      expect(beats()).toBe(1);
      jest.advanceTimersByTime(1);
      expect(beats()).toBe(2);
      jest.advanceTimersByTime(HEARTBEAT_MS * 2);
      expect(beats()).toBe(4);
      expect(HEARTBEAT_MS).toBe(300_000);
    } finally {
      jest.useRealTimers();
    }
  });

  it('after a server-side disconnect, reconnects with a refreshed token', async () => {
    const refresh = jest.fn(async () => (token = 'token-2'));
    client(refresh);
    socket.fire('connect');
    const before = socket.connects;
    socket.fire('disconnect', 'io server disconnect');
    await flush();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(socket.connects).toBe(before + 1);
    expect(socket.handshakeAuth()).toEqual({ token: 'token-2' });
  });

  it('a refused handshake (token expired) refreshes and connects again', async () => {
    const refresh = jest.fn(async () => (token = 'token-2'));
    client(refresh);
    const before = socket.connects;
    socket.fire('connect_error', Object.assign(new Error('token expired'), { data: { error: 'ERR_SESSION_EXPIRED', reason: 'expired' } }));
    await flush();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(socket.connects).toBe(before + 1);
  });

  it('the session is over when the refresh is refused', async () => {
    const { onSessionOver } = client(async () => null);
    socket.fire('connect_error', Object.assign(new Error('token revoked'), { data: { error: 'ERR_SESSION_EXPIRED' } }));
    await flush();
    expect(onSessionOver).toHaveBeenCalledTimes(1);
  });

  it('a network error is left to socket.io’s own retries', async () => {
    const refresh = jest.fn(async () => 'x');
    client(refresh);
    socket.fire('connect_error', new Error('websocket error'));
    await flush();
    expect(refresh).not.toHaveBeenCalled();
  });

  it('once closed, a server-side disconnect is not answered', async () => {
    const refresh = jest.fn(async () => 'x');
    const { c } = client(refresh);
    socket.fire('connect');
    c.close();
    socket.fire('disconnect', 'io server disconnect');
    await flush();
    expect(refresh).not.toHaveBeenCalled();
  });
});
