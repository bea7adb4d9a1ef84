import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EventBus, isTransientError } from '@wa/event-bus';
import { toErrorBody } from '@wa/server-kit';
import { TEST_NATS_URL, uniqueSuffix } from '@wa/testing';

/** A stream that reached its max_bytes refuses new messages, and the caller hears it as 503, never a silent loss. */
describe('a full stream', () => {
  const sfx = uniqueSuffix().replace(/-/g, '');
  const stream = { name: `FULL_${sfx}`, subjects: [`full${sfx}.>`], maxBytes: 4096 };
  let bus: EventBus;

  beforeAll(async () => {
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    bus = await EventBus.connect({ servers: TEST_NATS_URL, name: 'stream-full-test', streams: [stream], logger: quiet });
  });

  afterAll(async () => {
    const jsm = await bus.connection.jetstreamManager();
    await jsm.streams.delete(stream.name).catch(() => undefined);
    await bus.close();
  });

  it('refuses a publish once full (discard new, the stored messages stay) and the refusal answers 503', async () => {
    const jsm = await bus.connection.jetstreamManager();
    expect((await jsm.streams.info(stream.name)).config).toMatchObject({ max_bytes: 4096, discard: 'new' });
    let refusal: unknown;
    let accepted = 0;
    for (let i = 0; i < 100 && !refusal; i++) {
      try {
        await bus.publish(`full${sfx}.m`, { i, text: 'x'.repeat(200) }, { msgId: `${sfx}-${i}` });
        accepted++;
      } catch (err) {
        refusal = err;
      }
    }
    expect(refusal).toBeDefined();
    expect(accepted).toBeGreaterThan(0);
    // what was accepted is still there: nothing old was dropped to make room
    const state = (await jsm.streams.info(stream.name)).state;
    expect(state.messages).toBe(accepted);
    expect(state.first_seq).toBe(1);
    // a consumer waits this out as an outage; an HTTP caller gets 503 with Retry-After
    expect(isTransientError(refusal)).toBe(true);
    expect(toErrorBody(refusal, 'req-1')).toMatchObject({ statusCode: 503, error: 'ERR_SERVICE_UNAVAILABLE', retryAfter: 5 });
  });
});
