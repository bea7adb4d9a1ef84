import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { JetStreamManager } from 'nats';
import { DlqHeaders, EventBus, dlqSubject } from '../src/index.js';
import type { BusMessage } from '../src/index.js';
import { ensureLibBuilt } from '../../../scripts/lib/built-lib.mjs';
import { SERVERS, memLogger, uniq, waitFor } from './helpers.js';

const libDir = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = join(libDir, '..', '..');
const fixture = join(libDir, 'test', 'fixtures', 'consumer-child.mjs');

interface ChildEvent {
  event: string;
  seq?: number;
  msgId?: string;
  deliveryCount?: number;
}

class Child {
  readonly events: ChildEvent[] = [];
  readonly exited: Promise<number | null>;
  stderr = '';
  private readonly proc: ChildProcess;

  constructor(args: string[]) {
    this.proc = spawn(process.execPath, [fixture, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    createInterface({ input: this.proc.stdout! }).on('line', (l) => {
      try {
        this.events.push(JSON.parse(l) as ChildEvent);
      } catch {
        // not ours
      }
    });
    this.proc.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((resolve) => this.proc.on('exit', (code) => resolve(code)));
  }

  handling(): ChildEvent[] {
    return this.events.filter((e) => e.event === 'handling');
  }

  kill(): void {
    this.proc.kill('SIGKILL');
  }
}

describe('EventBus across process crashes (real child processes)', () => {
  const u = uniq();
  let bus: EventBus;
  let jsm: JetStreamManager;
  const children: Child[] = [];

  const start = (durable: string, filter: string, mode: 'hang' | 'exit', ackWaitMs: number, maxAttempts: number) => {
    const c = new Child([
      SERVERS,
      u.stream.name,
      u.stream.subjects.join(','),
      durable,
      filter,
      mode,
      String(ackWaitMs),
      String(maxAttempts),
    ]);
    children.push(c);
    return c;
  };

  beforeAll(async () => {
    // the child runs the built library: rebuilt when a source is newer than dist
    ensureLibBuilt(libDir);
    bus = await EventBus.connect({ servers: SERVERS, name: 'test-crash', streams: [u.stream], logger: memLogger() });
    jsm = await bus.connection.jetstreamManager();
  }, 60_000);

  afterAll(async () => {
    for (const c of children) c.kill();
    await jsm.streams.purge('DLQ', { filter: `dlq.${u.durable('poison')}.>` }).catch(() => undefined);
    await jsm.streams.delete(u.stream.name).catch(() => undefined);
    await bus.close();
  });

  it('a consumer process killed before its ack gets the message again after restart', async () => {
    const durable = u.durable('kill');
    const subject = u.subj('kill.1.2.5511999990000');
    const pub = await bus.publish(subject, { text: 'hello' }, { msgId: '2:WAMID.KILL' });

    const child = start(durable, u.subj('kill.>'), 'hang', 1500, 5);
    await waitFor(() => child.handling().length === 1, 15_000, `child handling (stderr: ${child.stderr})`);
    expect(child.handling()[0]).toMatchObject({ seq: pub.seq, msgId: '2:WAMID.KILL', deliveryCount: 1 });
    child.kill();
    expect(await child.exited).toBeNull(); // killed by signal

    const ci = await jsm.consumers.info(u.stream.name, durable);
    expect(ci.num_ack_pending).toBe(1); // delivered, never acked

    const got: BusMessage<{ text: string }>[] = [];
    const h = await bus.consume<{ text: string }>({
      stream: u.stream.name,
      durable,
      filterSubjects: [u.subj('kill.>')],
      ackWaitMs: 1500,
      handler: async (batch) => {
        got.push(...batch);
      },
    });
    await waitFor(() => got.length === 1, 10_000, 'redelivery');
    await h.stop();
    expect(got[0]).toMatchObject({ subject, msgId: '2:WAMID.KILL', streamSeq: pub.seq, data: { text: 'hello' } });
    expect(got[0]!.deliveryCount).toBe(2);
    const after = await jsm.consumers.info(u.stream.name, durable);
    expect(after.num_ack_pending).toBe(0);
    expect(after.ack_floor.stream_seq).toBeGreaterThanOrEqual(pub.seq);
  });

  it('a poison message that crashes its processes maxAttempts times is dead-lettered by the next one', async () => {
    const durable = u.durable('poison');
    const subject = u.subj('poison.1.3.5511999990001');
    const pub = await bus.publish(subject, { text: 'boom' }, { msgId: '3:WAMID.POISON' });

    for (let delivery = 1; delivery <= 2; delivery++) {
      const child = start(durable, u.subj('poison.>'), 'exit', 1500, 2);
      expect(await child.exited).toBe(3);
      expect(child.handling()).toEqual([expect.objectContaining({ seq: pub.seq, deliveryCount: delivery })]);
    }

    let calls = 0;
    const h = await bus.consume({
      stream: u.stream.name,
      durable,
      filterSubjects: [u.subj('poison.>')],
      ackWaitMs: 1500,
      maxAttempts: 2,
      maxDeliveries: 2,
      handler: async () => {
        calls++;
      },
    });
    await waitFor(async () => (await jsm.consumers.info(u.stream.name, durable)).num_ack_pending === 0, 10_000, 'dead-lettered');
    await h.stop();
    expect(calls).toBe(0);
    const dead = await jsm.streams.getMessage('DLQ', { last_by_subj: dlqSubject(durable, subject) });
    expect(dead.header.get(DlqHeaders.deliveryCount)).toBe('3');
    expect(dead.header.get(DlqHeaders.streamSeq)).toBe(String(pub.seq));
    expect(dead.json()).toEqual({ text: 'boom' });
  });
});
