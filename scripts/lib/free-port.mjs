// A port for a process started next (a service, nats-server) to listen on, in tests and benches.
//
// A port the kernel picks for listen(0) comes from the ephemeral range, which outgoing connections use too:
// between the pick and the child's listen, a connection of an earlier child (to PostgreSQL, NATS, Redis) could
// take it as its local port, and the child failed with EADDRINUSE (seen in bench:bot once). Ports below that
// range are never given to outgoing connections: one is picked at random there, checked free by listening on it,
// and not given twice by this process.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const LOWEST = 10_000;
const given = new Set();

/** The first port of the kernel's ephemeral range (32768 when it cannot be read). */
function ephemeralLow() {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > LOWEST + 1000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/** Resolves whether `port` (0: any) could be listened on at 127.0.0.1, and which port that was. */
function tryListen(port) {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', (err) => (err.code === 'EADDRINUSE' || err.code === 'EACCES' ? resolve(null) : reject(err)));
    srv.listen(port, '127.0.0.1', () => {
      const { port: bound } = srv.address();
      srv.close(() => resolve(bound));
    });
  });
}

export async function freePort() {
  const high = ephemeralLow();
  for (let i = 0; i < 200; i++) {
    const port = LOWEST + Math.floor(Math.random() * (high - LOWEST));
    if (given.has(port)) continue;
    if ((await tryListen(port)) === port) {
      given.add(port);
      return port;
    }
  }
  // nothing free below the range: the kernel's pick, as before
  const port = await tryListen(0);
  if (port === null) throw new Error('freePort: no port free');
  given.add(port);
  return port;
}
