import { describe, expect, it } from '@jest/globals';
import type { MessageBatchEvent, MessageEvent } from '@wa/contracts';
import type { MessageEntity } from '../../database/entities/index.js';
import { announceStored } from './announce.js';
import { batchedForBus, ticketUpdatedEvent } from './ticket-events.js';
import type { TicketRow } from './ticket-view.js';

const at = new Date('2024-11-22T10:00:00.000Z');

function ticket(id: number, fields: Partial<TicketRow> = {}): TicketRow {
  return {
    id,
    uuid: `uuid-${id}`,
    companyId: 1,
    status: 'pending',
    contactId: 100 + id,
    whatsappId: 10,
    queueId: null,
    userId: null,
    lastMessage: 'oi',
    unreadMessages: 1,
    isGroup: false,
    chatbot: false,
    useIntegration: false,
    promptId: null,
    integrationId: null,
    createdAt: at,
    updatedAt: at,
    sortKey: at.toISOString(),
    contactName: 'Maria',
    contactNumber: '5511999990001',
    contactPic: '',
    queueName: null,
    queueColor: null,
    whatsappName: 'Conn',
    ...fields,
  };
}

function message(id: number, ticketId: number, fields: Partial<MessageEntity> = {}): MessageEntity {
  return {
    id: String(id),
    companyId: 1,
    ticketId,
    contactId: 100 + ticketId,
    whatsappId: 10,
    wid: `W${id}`,
    body: `m${id}`,
    fromMe: false,
    mediaType: 'chat',
    mediaUrl: null,
    quotedMsgId: null,
    ack: 0,
    read: false,
    isDeleted: false,
    sentAt: at,
    seq: id,
    createdAt: at,
    updatedAt: at,
    ...fields,
  };
}

const names = (companyId: number, userId: number) => `user ${companyId}/${userId}`;

describe('announceStored', () => {
  it('announces new messages with one message.created each, carrying its ticket as it now is, and no ticket.updated', () => {
    const events = announceStored(
      'created',
      [message(1, 7), message(2, 8), message(3, 7)],
      [ticket(7, { lastMessage: 'm3', unreadMessages: 2 }), ticket(8)],
      names,
    );
    expect(events.map((e) => e.subject)).toEqual(['message.created.1.7', 'message.created.1.8', 'message.created.1.7']);
    expect(events.map((e) => e.msgId).slice(0, 3)).toEqual(['message-created:1', 'message-created:2', 'message-created:3']);
    const first = events[0].payload as MessageEvent;
    expect(first).toMatchObject({
      companyId: 1,
      message: { id: 1, ticketId: 7, body: 'm1' },
      ticket: { id: 7 },
      contact: { id: 107, name: 'Maria' },
    });
    expect((events[2].payload as MessageEvent).ticket).toMatchObject({ id: 7, lastMessage: 'm3', unreadMessages: 2 });
  });

  it('announces a changed message with message.updated, its msg id following the ack, and no ticket.updated', () => {
    const events = announceStored('updated', [message(5, 7, { ack: 3, fromMe: true })], [ticket(7)], names);
    expect(events).toHaveLength(1);
    expect(events[0].subject).toBe('message.updated.1.7');
    expect(events[0].msgId).toBe(`message-updated:5:3:${at.toISOString()}`);
    expect((events[0].payload as MessageEvent).message.ack).toBe(3);
  });

  it('carries the message a message answers as quotedMsg (its body, fromMe, mediaType, contact), null when it answers none', () => {
    const quoted = { message: message(3, 7, { body: 'Qual o preço?' }), contact: { id: 107, name: 'Maria', number: '5511999990001' } };
    const [reply, plain] = announceStored(
      'created',
      [{ ...message(4, 7, { fromMe: true, quotedMsgId: 3 }), quoted }, message(5, 7)],
      [ticket(7)],
      names,
    );
    expect((reply.payload as MessageEvent).message).toMatchObject({
      quotedMsgId: 3,
      quotedMsg: {
        id: 3,
        body: 'Qual o preço?',
        fromMe: false,
        mediaType: 'chat',
        contact: { id: 107, name: 'Maria', number: '5511999990001' },
        quotedMsg: null,
      },
    });
    expect((plain.payload as MessageEvent).message).toMatchObject({ quotedMsgId: null, quotedMsg: null });
  });

  it("names the ticket's holder through the given directory", () => {
    const [created] = announceStored('created', [message(1, 7)], [ticket(7, { userId: 4, companyId: 1 })], names);
    expect((created.payload as MessageEvent).ticket.user).toEqual({ id: 4, name: 'user 1/4' });
  });

  it('leaves out a message whose ticket is not given, and a ticket with no message', () => {
    expect(announceStored('created', [message(1, 7)], [ticket(8)], names)).toEqual([]);
    expect(announceStored('created', [], [ticket(8)], names)).toEqual([]);
  });

  it('does not mix the same ticket id of two companies', () => {
    const events = announceStored(
      'created',
      [message(1, 7, { companyId: 2 })],
      [ticket(7, { companyId: 1 }), ticket(7, { companyId: 2, contactName: 'Outra' })],
      names,
    );
    expect(events.map((e) => e.subject)).toEqual(['message.created.2.7']);
    expect((events[0].payload as MessageEvent).contact.name).toBe('Outra');
  });
});

describe('batchedForBus', () => {
  const created = (ms: MessageEntity[], ts: TicketRow[]) => announceStored('created', ms, ts, names);

  it("gathers a company's message events into one message.batch in their order, each with its verb; other events stay where they were", () => {
    const events = [
      ...created([message(1, 7), message(2, 8, { companyId: 2 }), message(3, 7)], [ticket(7), ticket(8, { companyId: 2 })]),
      ...announceStored('updated', [message(4, 7, { ack: 3 })], [ticket(7)], names),
      ticketUpdatedEvent((created([message(9, 8)], [ticket(8)])[0].payload as MessageEvent).ticket),
    ];
    const out = batchedForBus(events);
    expect(out.map((e) => e.subject)).toEqual(['message.batch.1.1', 'message.created.2.8', 'ticket.updated.1.8']);
    const batch = out[0].payload as MessageBatchEvent;
    expect(batch.companyId).toBe(1);
    expect(batch.events.map((e) => [e.verb, e.message.id])).toEqual([
      ['created', 1],
      ['created', 3],
      ['updated', 4],
    ]);
    // each as it would have gone alone, its verb beside it
    expect(batch.events[0]).toEqual({ ...(events[0].payload as MessageEvent), verb: 'created' });
    // a lone message of its company goes as itself
    expect(out[1]).toBe(events[1]);
  });

  it("gathers no message across another event of the stream (a ticket's, a contact's): none is moved ahead of it", () => {
    const [m1, m2, m3] = created([message(1, 7), message(2, 7), message(3, 7)], [ticket(7)]);
    const moved = ticketUpdatedEvent({ ...(m1.payload as MessageEvent).ticket, queueId: 5 });
    const send = { subject: 'wa.outbound.send.10', msgId: 'send:W2', payload: {} };
    const out = batchedForBus([m1, send, m2, moved, m3]);
    // a send (another stream) is no barrier; the ticket's event is: what came after it goes after it
    expect(out.map((e) => e.subject)).toEqual(['message.batch.1.1', 'wa.outbound.send.10', 'ticket.updated.1.7', 'message.created.1.7']);
    expect((out[0].payload as MessageBatchEvent).events.map((e) => e.message.id)).toEqual([1, 2]);
    expect(out[3]).toBe(m3);
  });

  it("names a batch by a digest of its events' msg ids: the same messages announced again are the same batch, others another", () => {
    const of = (ids: number[]) =>
      batchedForBus(
        created(
          ids.map((id) => message(id, 7)),
          [ticket(7)],
        ),
      )[0].msgId;
    expect(of([1, 2, 3])).toMatch(/^message-batch:[0-9a-f]{40}$/);
    expect(of([1, 2, 3])).toBe(of([1, 2, 3]));
    expect(of([1, 2])).not.toBe(of([1, 2, 3]));
    expect(of([2, 3])).not.toBe(of([1, 2, 3]));
  });

  it('keeps a batch under the bus limits: at most 200 events, and well under 1 MB of JSON whatever its texts', () => {
    const many = created(
      Array.from({ length: 450 }, (_, i) => message(i + 1, 7)),
      [ticket(7)],
    );
    expect(batchedForBus(many).map((e) => (e.payload as MessageBatchEvent).events.length)).toEqual([200, 200, 50]);
    // long texts, and texts that JSON writes six bytes a character
    for (const body of ['x'.repeat(40 * 1024), '\u0001'.repeat(40 * 1024), 'ã'.repeat(20 * 1024)]) {
      const big = created(
        Array.from({ length: 5 }, (_, i) => message(i + 1, 7, { body })),
        [ticket(7, { lastMessage: body })],
      );
      const out = batchedForBus(big);
      expect(
        out
          .flatMap((e) => ('events' in (e.payload as object) ? (e.payload as MessageBatchEvent).events : [e.payload as MessageEvent]))
          .map((e) => e.message.id),
      ).toEqual([1, 2, 3, 4, 5]);
      expect(out.length).toBeGreaterThan(1);
      for (const e of out) expect(Buffer.byteLength(JSON.stringify(e.payload))).toBeLessThan(1024 * 1024);
    }
    // one too large for any batch goes alone, as before batches
    const huge = created([message(1, 7, { body: 'x'.repeat(200 * 1024) }), message(2, 7)], [ticket(7)]);
    expect(batchedForBus(huge).map((e) => e.subject)).toEqual(['message.created.1.7', 'message.created.1.7']);
  });
});
