import { describe, expect, it } from '@jest/globals';
import { inboundLaneKey, inboundMessagesOf, WaSubjects, type WaInboundBatch, type WaInboundMessage } from './whatsapp.events.js';

const message = (waMessageId: string, from: string): WaInboundMessage => ({
  companyId: 7,
  connectionId: 3,
  waMessageId,
  from,
  fromName: 'Maria',
  body: 'oi',
  mediaType: 'chat',
  fromMe: false,
  isGroup: false,
  timestamp: 1_700_000_000_000,
});

describe('wa.inbound events', () => {
  it('a message alone and a batch of its connection share one lane: the connection', () => {
    const alone = WaSubjects.inbound(7, 3, '5511999990001');
    const batch = WaSubjects.inboundBatch(7, 3);
    expect(batch).toBe('wa.inbound.7.3.batch');
    expect(inboundLaneKey(alone)).toBe('7.3');
    expect(inboundLaneKey(batch)).toBe('7.3');
    expect(inboundLaneKey(WaSubjects.inbound(7, 4, '5511999990001'))).toBe('7.4');
    expect(inboundLaneKey(WaSubjects.inbound(8, 3, '5511999990001'))).toBe('8.3');
  });

  it('the messages an event carries: itself, or a batch’s in their order; none for anything else', () => {
    const one = message('A1', '5511999990001');
    const batch: WaInboundBatch = {
      companyId: 7,
      connectionId: 3,
      messages: [message('B1', '5511999990002'), one, message('B2', '5511999990002')],
    };
    expect(inboundMessagesOf(one)).toEqual([one]);
    expect(inboundMessagesOf(batch).map((m) => m.waMessageId)).toEqual(['B1', 'A1', 'B2']);
    expect(inboundMessagesOf(undefined)).toEqual([]);
    expect(inboundMessagesOf(null)).toEqual([]);
    expect(inboundMessagesOf({ companyId: 7, connectionId: 3, messages: 'x' } as unknown as WaInboundBatch)).toEqual([]);
    expect(inboundMessagesOf({ companyId: 7, connectionId: 3, messages: [null, one] } as unknown as WaInboundBatch)).toEqual([one]);
  });
});
