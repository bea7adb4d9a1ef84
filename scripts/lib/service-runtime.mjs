// How every service's node runs, wherever it is started: `npm start`, the benches, the image (deploy/Dockerfile
// sets the same NODE_OPTIONS; deploy's tests keep the two alike).
//
// --max-semi-space-size=64 (MB; node's default is 16): a larger young generation. A request's objects still in
// use when the young generation fills (a call waiting on PostgreSQL) are copied, and after a second time moved to
// the old generation; with the default they piled up there at ~1.5 MB/s in the gateway under the public API
// bench (30 calls/s), and a mark-compact of ~60 MB every 6 s stalled every call in flight by 30–70 ms. With 32 MB
// the gateway ran the same 30 s without one. Under the bot bench (~190 messages/s) tickets still moved 3–4 MB to
// the old generation at each of its ~37 scavenges and paid a mark-compact every few seconds, and the slowest
// replies came in clusters around such pauses; with 64 MB it scavenged half as often (205 against 297 ms of
// pauses in a run), made no mark-compact, and the reply p99 over three runs each fell from 154 to 133 ms. The
// young generation takes up to three times this (192 MB) once a process is that busy: every service's container
// may use 512 MiB or more (k8s/base), and a migration allocates far too little to grow it.
export const SERVICE_NODE_OPTIONS = '--max-semi-space-size=64';

/**
 * A service whose node runs otherwise, here and wherever it is deployed (k8s/base sets them in the service's ConfigMap,
 * deploy/docker-compose.yml in its environment; deploy's tests keep the three alike).
 * realtime-gateway: nothing of it waits long, so V8's own young generation (64 MB semi-spaces kept 128 MB resident for
 * nothing with 10,000 sockets), and an old generation sized to its pod's 512Mi limit, so the fan-out's promoted garbage
 * is collected sooner (k8s/base/realtime-gateway.yaml has the figures).
 */
export const SERVICE_NODE_OPTIONS_OF = Object.freeze({
  'realtime-gateway': '--max-semi-space-size=16 --max-old-space-size=384',
});

/** NODE_OPTIONS for a service process: the caller's own (if any) and the service's options (`name`'s own, else every service's). */
export function serviceNodeOptions(existing = process.env.NODE_OPTIONS, name = undefined) {
  return [existing, (name && SERVICE_NODE_OPTIONS_OF[name]) || SERVICE_NODE_OPTIONS].filter(Boolean).join(' ');
}
