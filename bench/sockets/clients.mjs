// One client process of bench/sockets/run.mjs (started by it, talks to it over IPC).
// Connects its share of the sockets in batches, records publish → delivery latency of every
// `company-<id>-ticket` event, and reports when asked.
//
// Messages from the parent: { type: 'connect', url, batch, sockets: [{ token, companyId }] }, { type: 'report' }, { type: 'close' }.
// Messages to the parent: { type: 'progress', connected, failed }, { type: 'connected', connected, failed, errors },
//                         { type: 'report', latencies, deliveries, foreign, warm, disconnects }.
import { PerformanceObserver } from 'node:perf_hooks';
import { io } from 'socket.io-client';

const clockMs = () => Number(process.hrtime.bigint()) / 1e6; // CLOCK_MONOTONIC: the same clock in every process of the machine

const sockets = [];
let latencies = new Float64Array(1 << 16);
let seqs = new Int32Array(1 << 16); // the event each latency belongs to
let deliveries = 0;
let foreign = 0; // events of another company: must stay 0
let warm = 0;
let disconnects = 0;
// this process's own GC pauses (they delay deliveries as seen here), counted once publishing starts
let gcMaxMs = 0;
let gcOver20 = 0;
let gcCounting = false;
new PerformanceObserver((list) => {
  if (!gcCounting) return;
  for (const e of list.getEntries()) {
    gcMaxMs = Math.max(gcMaxMs, e.duration);
    if (e.duration > 20) gcOver20++;
  }
}).observe({ entryTypes: ['gc'] });

function record(ms, seq) {
  if (deliveries === latencies.length) {
    const bigger = new Float64Array(latencies.length * 2);
    bigger.set(latencies);
    latencies = bigger;
    const biggerSeqs = new Int32Array(seqs.length * 2);
    biggerSeqs.set(seqs);
    seqs = biggerSeqs;
  }
  seqs[deliveries] = seq;
  latencies[deliveries++] = ms;
}

function connectOne(url, { token, companyId }) {
  return new Promise((resolve) => {
    const socket = io(url, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: { token },
      reconnection: false,
      forceNew: true,
      timeout: 60_000,
    });
    socket.onAny((event, payload) => {
      const at = clockMs();
      if (event !== `company-${companyId}-ticket`) {
        if (/^company-\d+-ticket$/.test(event)) foreign++;
        return;
      }
      const sentAt = payload?.ticket?.benchSentAt;
      if (typeof sentAt !== 'number') return;
      if (payload.ticket.benchWarm) warm++;
      else {
        gcCounting = true;
        record(at - sentAt, payload.ticket.benchSeq);
      }
    });
    socket.once('connect', () => {
      sockets.push(socket);
      socket.on('disconnect', () => disconnects++);
      resolve(true);
    });
    socket.once('connect_error', (err) => {
      socket.close();
      resolve(err?.message ?? 'connect_error');
    });
  });
}

async function connectAll({ url, batch, sockets: wanted }) {
  let connected = 0;
  let failed = 0;
  const errors = {};
  for (let i = 0; i < wanted.length; i += batch) {
    const results = await Promise.all(wanted.slice(i, i + batch).map((s) => connectOne(url, s)));
    for (const r of results) {
      if (r === true) connected++;
      else {
        failed++;
        errors[r] = (errors[r] ?? 0) + 1;
      }
    }
    process.send({ type: 'progress', connected, failed });
  }
  process.send({ type: 'connected', connected, failed, errors });
}

process.on('message', (msg) => {
  if (msg.type === 'connect') void connectAll(msg);
  else if (msg.type === 'report') {
    process.send({
      type: 'report',
      latencies: Array.from(latencies.subarray(0, deliveries)),
      seqs: Array.from(seqs.subarray(0, deliveries)),
      deliveries,
      foreign,
      warm,
      disconnects,
      gcMaxMs,
      gcOver20,
    });
  } else if (msg.type === 'close') {
    for (const s of sockets) s.close();
    setTimeout(() => process.exit(0), 200);
  }
});
process.on('disconnect', () => process.exit(0)); // the parent went away
