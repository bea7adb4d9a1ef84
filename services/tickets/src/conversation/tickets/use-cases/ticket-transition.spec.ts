import { describe, expect, it } from '@jest/globals';
import { ticketTransition, type TicketState } from './ticket-transition.js';

const agent = { id: 7, isAdmin: false };
const other = { id: 8, isAdmin: false };
const admin = { id: 1, isAdmin: true };
const waiting: TicketState = { status: 'pending', userId: null, queueId: 3, whatsappId: 10, isGroup: false };
const held: TicketState = { status: 'open', userId: 7, queueId: 3, whatsappId: 10, isGroup: false };
const closed: TicketState = { status: 'closed', userId: 7, queueId: 3, whatsappId: 10, isGroup: false };

describe('ticketTransition (spec 01 §4)', () => {
  it('accept: the caller takes a waiting ticket, the bot stops, and the customer is greeted', () => {
    expect(ticketTransition(waiting, { status: 'open' }, agent)).toEqual({
      kind: 'accept',
      patch: { status: 'open', chatbot: false, userId: 7 },
      effects: ['greeting'],
      checks: {},
    });
  });

  it('accept for another agent (the transfer dialog): no greeting; moved to another queue, the customer is told', () => {
    const t = ticketTransition(waiting, { status: 'open', userId: 9, queueId: 4 }, agent);
    expect(t.patch).toEqual({ status: 'open', chatbot: false, userId: 9, queueId: 4 });
    expect(t.effects).toEqual(['transfer-notice']);
    expect(t.checks).toEqual({ queueId: 4 });
  });

  it('a group is neither greeted nor told of a transfer nor bid farewell', () => {
    expect(ticketTransition({ ...waiting, isGroup: true }, { status: 'open' }, agent).effects).toEqual([]);
    expect(ticketTransition({ ...held, isGroup: true }, { queueId: 4 }, agent).effects).toEqual([]);
    expect(ticketTransition({ ...held, isGroup: true }, { status: 'closed' }, agent).effects).toEqual([]);
  });

  it('reopen: a closed ticket is the caller’s again, without a greeting', () => {
    expect(ticketTransition(closed, { status: 'open' }, other)).toMatchObject({
      kind: 'reopen',
      patch: { status: 'open', userId: 8 },
      effects: [],
    });
  });

  it('an open ticket held by another is taken by an admin only', () => {
    expect(() => ticketTransition(held, { status: 'open', userId: 8 }, other)).toThrow(
      expect.objectContaining({ code: 'ERR_NO_PERMISSION' }),
    );
  });

  it('return: back to the queue with no holder, by its holder or an admin', () => {
    expect(ticketTransition(held, { status: 'pending' }, agent)).toEqual({
      kind: 'return',
      patch: { status: 'pending', userId: null },
      effects: [],
      checks: {},
    });
    expect(ticketTransition(held, { status: 'pending', queueId: 5 }, admin).effects).toEqual(['transfer-notice']);
    expect(() => ticketTransition(held, { status: 'pending' }, other)).toThrow(expect.objectContaining({ code: 'ERR_NO_PERMISSION' }));
  });

  it('resolve: bot, integration and prompt off, nothing unread, the farewell; a ticket nobody held is closed by the caller', () => {
    expect(ticketTransition(held, { status: 'closed' }, agent)).toEqual({
      kind: 'resolve',
      patch: { status: 'closed', chatbot: false, useIntegration: false, promptId: null, unreadMessages: 0 },
      effects: ['farewell'],
      checks: {},
    });
    expect(ticketTransition(waiting, { status: 'closed' }, other).patch.userId).toBe(8);
    expect(() => ticketTransition(held, { status: 'closed' }, other)).toThrow(expect.objectContaining({ code: 'ERR_NO_PERMISSION' }));
  });

  it('transfer: another agent, queue or connection; a waiting ticket’s queue and connection by anyone', () => {
    expect(ticketTransition(held, { userId: 9 }, agent)).toEqual({
      kind: 'transfer',
      patch: { userId: 9 },
      effects: ['transfer-notice'],
      checks: {},
    });
    expect(ticketTransition(waiting, { queueId: 4, whatsappId: 11 }, other)).toEqual({
      kind: 'transfer',
      patch: { queueId: 4, whatsappId: 11 },
      effects: ['transfer-notice'],
      checks: { queueId: 4, whatsappId: 11 },
    });
    expect(() => ticketTransition(held, { queueId: 4 }, other)).toThrow(expect.objectContaining({ code: 'ERR_NO_PERMISSION' }));
    expect(() => ticketTransition(held, { userId: 9 }, other)).toThrow(expect.objectContaining({ code: 'ERR_NO_PERMISSION' }));
  });

  it('what is already so changes nothing', () => {
    expect(ticketTransition(held, { status: 'open', userId: 7, queueId: 3, whatsappId: 10 }, agent)).toEqual({
      kind: 'edit',
      patch: {},
      effects: [],
      checks: {},
    });
  });
});
