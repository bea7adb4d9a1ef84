import { beforeAll, describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { BusMessage } from '@wa/event-bus';
import type { RealtimeEnv } from '../../config/env.js';
import { SessionReplacedConsumer } from './session-replaced.consumer.js';

const msg = (data: unknown, subject = 'auth.session.replaced.7.9'): BusMessage<unknown> => ({
  subject,
  data,
  msgId: 'x',
  streamSeq: 1,
  deliveryCount: 1,
  attempt: 1,
  headers: {},
});

describe('SessionReplacedConsumer', () => {
  beforeAll(() => Logger.overrideLogger(false)); // skipped events are logged as warnings

  const consumer = new SessionReplacedConsumer({ SESSION_ENDED_GRACE_MS: 2000 } as RealtimeEnv);

  it('addresses the ended sessions only, never the new one', () => {
    expect(consumer.emissions(msg({ companyId: 7, userId: 9, sessionId: 'new', endedSessionIds: ['old', 'new', 'old'], at: '' }))).toEqual([
      {
        rooms: ['c:7:sid:old'],
        except: ['c:7:sid:new'],
        channel: 'company-7-auth',
        payload: { action: 'sessionReplaced', user: { id: 9 } },
        disconnectAfterMs: 2000,
      },
    ]);
  });

  it('emits nothing without ended sessions or with a company that disagrees with the subject', () => {
    expect(consumer.emissions(msg({ companyId: 7, userId: 9, sessionId: 'new', endedSessionIds: [], at: '' }))).toEqual([]);
    expect(consumer.emissions(msg({ companyId: 8, userId: 9, sessionId: 'new', endedSessionIds: ['old'], at: '' }))).toEqual([]);
  });
});
