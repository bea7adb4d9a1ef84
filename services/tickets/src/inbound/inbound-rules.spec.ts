import { describe, expect, it } from '@jest/globals';
import type { WaInboundMessage } from '@wa/contracts';
import {
  compareMessages,
  contactNameAfter,
  contactNameOf,
  contactsOfBatch,
  initialStateOf,
  lastMessageOf,
  queueForNewTicket,
  sentAtOf,
  storeInboundArgs,
  unreadIncrement,
} from './inbound-rules.js';

function msg(fields: Partial<WaInboundMessage> = {}): WaInboundMessage {
  return {
    companyId: 1,
    connectionId: 10,
    waMessageId: 'W1',
    from: '5511999990001',
    fromName: 'Maria',
    body: 'oi',
    mediaType: 'chat',
    fromMe: false,
    isGroup: false,
    timestamp: 1_700_000_000_000,
    ...fields,
  };
}

describe('contact names', () => {
  it('takes the trimmed push name of a customer message, cut to 100 characters', () => {
    expect(contactNameOf(msg({ fromName: '  Maria Souza ' }))).toBe('Maria Souza');
    expect(contactNameOf(msg({ fromName: 'x'.repeat(150) }))).toBe('x'.repeat(100));
    expect(contactNameOf(msg({ fromName: '   ' }))).toBe('');
  });

  it('takes no name from a message we sent (it carries our own name)', () => {
    expect(contactNameOf(msg({ fromMe: true, fromName: 'Atendente' }))).toBe('');
  });

  it('renames a known contact only when a name came; a new one without a name is named by its number', () => {
    expect(contactNameAfter('Maria', { number: '551', name: 'Maria S.' })).toBe('Maria S.');
    expect(contactNameAfter('Maria', { number: '551', name: '' })).toBe('Maria');
    expect(contactNameAfter('Maria', { number: '551', name: '551' })).toBe('Maria');
    expect(contactNameAfter(undefined, { number: '551', name: '' })).toBe('551');
    expect(contactNameAfter(undefined, { number: '551', name: 'Ana' })).toBe('Ana');
  });
});

describe('contactsOfBatch', () => {
  it('gives one contact per company and number; the last name given wins, a message without one keeps it', () => {
    const contacts = contactsOfBatch([
      msg({ from: '552', fromName: 'Ana' }),
      msg({ from: '552', fromName: 'Ana Lima' }),
      msg({ from: '552', fromName: '' }),
      msg({ from: '552', fromMe: true, fromName: 'Agente' }),
    ]);
    expect(contacts).toEqual([{ companyId: 1, number: '552', name: 'Ana Lima', isGroup: false }]);
  });

  it('keeps the Brazilian 9th-digit variants of one number as one contact, under the canonical number', () => {
    const contacts = contactsOfBatch([
      msg({ from: '551187654321', fromName: 'Ana' }),
      msg({ from: '5511987654321', fromName: 'Ana Lima' }),
    ]);
    expect(contacts).toEqual([{ companyId: 1, number: '5511987654321', name: 'Ana Lima', isGroup: false }]);
  });

  it('keeps the same number of two companies apart', () => {
    expect(contactsOfBatch([msg({ companyId: 2 }), msg({ companyId: 1 })]).map((c) => c.companyId)).toEqual([1, 2]);
  });

  it('flags groups by the last message', () => {
    expect(contactsOfBatch([msg({ from: 'g1', isGroup: false }), msg({ from: 'g1', isGroup: true })])[0].isGroup).toBe(true);
  });

  it('sorts by company, then number, so parallel batches lock contacts in the same order', () => {
    const contacts = contactsOfBatch([
      msg({ companyId: 2, from: '1' }),
      msg({ companyId: 1, from: '9' }),
      msg({ companyId: 1, from: '10' }),
      msg({ companyId: 1, from: '3' }),
    ]);
    expect(contacts.map((c) => `${c.companyId}:${c.number}`)).toEqual(['1:10', '1:3', '1:9', '2:1']);
  });
});

describe('queueForNewTicket', () => {
  it("is the connection's queue when it has exactly one, none otherwise", () => {
    expect(queueForNewTicket([7])).toBe(7);
    expect(queueForNewTicket([7, 8])).toBeNull();
    expect(queueForNewTicket([])).toBeNull();
    expect(queueForNewTicket(undefined)).toBeNull();
  });
});

describe('stored message state', () => {
  it('stores our own messages as sent and read, a customer message unread without ack', () => {
    expect(initialStateOf({ fromMe: true })).toEqual({ ack: 1, read: true });
    expect(initialStateOf({ fromMe: false })).toEqual({ ack: 0, read: false });
  });

  it('counts only customer messages as unread', () => {
    expect(unreadIncrement([{ fromMe: false }, { fromMe: true }, { fromMe: false }])).toBe(2);
    expect(unreadIncrement([{ fromMe: true }])).toBe(0);
    expect(unreadIncrement([])).toBe(0);
  });

  it("uses WhatsApp's timestamp as the clock, the storing time when there is none", () => {
    expect(sentAtOf({ timestamp: 1_700_000_000_000 }, 5).toISOString()).toBe(new Date(1_700_000_000_000).toISOString());
    expect(sentAtOf({ timestamp: 0 }, 1_800_000_000_000).getTime()).toBe(1_800_000_000_000);
  });
});

describe('lastMessageOf', () => {
  const at = (s: number) => new Date(1_700_000_000_000 + s * 1000);

  it("is the newest by WhatsApp's clock, not the latest to arrive", () => {
    const late = { id: 3, seq: 30, sentAt: at(1), body: 'chegou atrasada' };
    const newest = { id: 2, seq: 20, sentAt: at(5), body: 'a mais nova' };
    expect(lastMessageOf([{ id: 1, seq: 10, sentAt: at(0) }, newest, late])).toBe(newest);
  });

  it('breaks a tie of the clock by arrival (seq), a message without seq counting as latest, then by id', () => {
    const a = { id: 1, seq: 10, sentAt: at(0) };
    const b = { id: 2, seq: 11, sentAt: at(0) };
    const agent = { id: 3, seq: null, sentAt: at(0) };
    expect(lastMessageOf([b, a])).toBe(b);
    expect(lastMessageOf([agent, b, a])).toBe(agent);
    expect(
      lastMessageOf([
        { id: '9', seq: null, sentAt: at(0).toISOString() },
        { id: '10', seq: null, sentAt: at(0).toISOString() },
      ])?.id,
    ).toBe('10');
    expect(compareMessages(a, a)).toBe(0);
  });

  it('is undefined for no messages', () => {
    expect(lastMessageOf([])).toBeUndefined();
  });
});

describe('storeInboundArgs', () => {
  it("builds the function's arrays: contacts of the batch, then one entry per message with its new ticket's queue", () => {
    const queues = new Map([
      [10, [5]],
      [11, [5, 6]],
    ]);
    const args = storeInboundArgs(
      [
        { data: msg({ from: '552', fromName: 'Ana', waMessageId: 'A' }), seq: 100 },
        { data: msg({ from: '551', connectionId: 11, fromMe: true, waMessageId: 'B', body: 'olá', timestamp: 0 }), seq: 101 },
      ],
      (id) => queues.get(id),
      1_800_000_000_000,
    );
    expect(args).toEqual([
      [1, 1],
      ['551', '552'],
      ['', 'Ana'],
      [false, false],
      [1, 1],
      ['552', '551'],
      [10, 11],
      [5, null],
      [false, false],
      ['A', 'B'],
      ['oi', 'olá'],
      [false, true],
      ['chat', 'chat'],
      [new Date(1_700_000_000_000).toISOString(), new Date(1_800_000_000_000).toISOString()],
      [100, 101],
    ]);
  });
});
