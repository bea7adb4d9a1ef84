import { beforeAll, describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { BusMessage } from '@wa/event-bus';
import type { TicketPlace } from '../../realtime/rooms.js';
import type { TicketPlaces } from '../../realtime/ticket-places.js';
import { TicketsConsumer, ticketsOrderKey } from './tickets.consumer.js';

/** The cache's behaviour over a Map (the Redis one is exercised by the integration tests). */
class MapPlaces {
  readonly map = new Map<string, TicketPlace>();
  async get(c: number, t: number) {
    return this.map.get(`${c}:${t}`) ?? null;
  }
  async swap(c: number, t: number, p: TicketPlace) {
    const before = this.map.get(`${c}:${t}`) ?? null;
    this.map.set(`${c}:${t}`, p);
    return before;
  }
  async learn(c: number, t: number, p: TicketPlace) {
    if (!this.map.has(`${c}:${t}`)) this.map.set(`${c}:${t}`, p);
  }
  async forget(c: number, t: number) {
    const before = this.map.get(`${c}:${t}`) ?? null;
    this.map.delete(`${c}:${t}`);
    return before;
  }
}

const msg = (subject: string, data: unknown): BusMessage<unknown> => ({
  subject,
  data,
  msgId: 'x',
  streamSeq: 1,
  deliveryCount: 1,
  attempt: 1,
  headers: {},
});
const ticket = (queueId: number | null, userId: number | null = null) => ({ id: 5, companyId: 7, queueId, userId, status: 'open' });

describe('TicketsConsumer', () => {
  beforeAll(() => Logger.overrideLogger(false)); // skipped events are logged as warnings

  const setup = () => {
    const places = new MapPlaces();
    return { places, consumer: new TicketsConsumer(places as unknown as TicketPlaces) };
  };

  it('sends a ticket update to admins, its queue and owner', async () => {
    const { consumer } = setup();
    const t = ticket(3, 9);
    expect(await consumer.emissions(msg('ticket.updated.7.5', { companyId: 7, ticket: t }))).toEqual([
      { rooms: ['c:7:all', 'c:7:queue:3', 'c:7:user:9'], channel: 'company-7-ticket', payload: { action: 'update', ticket: t } },
    ]);
  });

  it('tells the rooms a ticket left to drop it, except sockets that still see it', async () => {
    const { consumer } = setup();
    await consumer.emissions(msg('ticket.updated.7.5', { companyId: 7, ticket: ticket(3, 9) }));
    const out = await consumer.emissions(msg('ticket.updated.7.5', { companyId: 7, ticket: ticket(4, 9) }));
    expect(out[1]).toEqual({
      rooms: ['c:7:queue:3'],
      except: ['c:7:all', 'c:7:queue:4', 'c:7:user:9'],
      channel: 'company-7-ticket',
      payload: { action: 'delete', ticketId: 5 },
    });
  });

  it('sends messages to the ticket’s rooms with the spec’s payload', async () => {
    const { consumer } = setup();
    const t = ticket(null, 9);
    const out = await consumer.emissions(msg('message.updated.7.5', { companyId: 7, ticket: t, message: { id: 1 }, contact: { id: 2 } }));
    expect(out).toEqual([
      {
        rooms: ['c:7:all', 'c:7:user:9'],
        channel: 'company-7-appMessage',
        payload: { action: 'update', ticket: t, message: { id: 1 }, contact: { id: 2 } },
      },
    ]);
  });

  it('a new message in a ticket that stays where it was is the appMessage alone (it carries the ticket); a ticket new here is told too', async () => {
    const { consumer } = setup();
    const first = { ...ticket(3), lastMessage: 'oi', unreadMessages: 1 };
    const created = (t: object) => msg('message.created.7.5', { companyId: 7, ticket: t, message: { id: 1 }, contact: { id: 2 } });
    // the ticket's first message: its rooms learn of the ticket as well
    expect((await consumer.emissions(created(first))).map((e) => [e.channel, (e.payload as { action: string }).action])).toEqual([
      ['company-7-appMessage', 'create'],
      ['company-7-ticket', 'update'],
    ]);
    const next = { ...ticket(3), lastMessage: 'tudo bem?', unreadMessages: 2 };
    expect(await consumer.emissions(created(next))).toEqual([
      {
        rooms: ['c:7:all', 'c:7:queue:3'],
        channel: 'company-7-appMessage',
        payload: { action: 'create', ticket: next, message: { id: 1 }, contact: { id: 2 } },
      },
    ]);
  });

  it('makes a new message its ticket’s update too (no ticket.updated follows it): the message, the ticket as it left it, a drop for the rooms it left', async () => {
    const { consumer } = setup();
    await consumer.emissions(msg('ticket.updated.7.5', { companyId: 7, ticket: ticket(3) }));
    // the bot moved the conversation to queue 4 with its reply
    const t = { ...ticket(4), lastMessage: 'Financeiro' };
    const out = await consumer.emissions(msg('message.created.7.5', { companyId: 7, ticket: t, message: { id: 1 }, contact: { id: 2 } }));
    expect(out).toEqual([
      {
        rooms: ['c:7:all', 'c:7:queue:4'],
        channel: 'company-7-appMessage',
        payload: { action: 'create', ticket: t, message: { id: 1 }, contact: { id: 2 } },
      },
      { rooms: ['c:7:all', 'c:7:queue:4'], channel: 'company-7-ticket', payload: { action: 'update', ticket: t } },
      {
        rooms: ['c:7:queue:3'],
        except: ['c:7:all', 'c:7:queue:4'],
        channel: 'company-7-ticket',
        payload: { action: 'delete', ticketId: 5 },
      },
    ]);
  });

  it('sends delete and updateUnread with the ticket id only, contacts to the whole company', async () => {
    const { consumer } = setup();
    expect(await consumer.emissions(msg('ticket.unread.7.5', { companyId: 7, ticketId: 5, queueId: 3, userId: null }))).toEqual([
      { rooms: ['c:7:all', 'c:7:queue:3'], channel: 'company-7-ticket', payload: { action: 'updateUnread', ticketId: 5 } },
    ]);
    expect(await consumer.emissions(msg('ticket.deleted.7.5', { companyId: 7, ticketId: 5, queueId: 4, userId: null }))).toEqual([
      { rooms: ['c:7:all', 'c:7:queue:4', 'c:7:queue:3'], channel: 'company-7-ticket', payload: { action: 'delete', ticketId: 5 } },
    ]);
    expect(await consumer.emissions(msg('contact.updated.7.2', { companyId: 7, contact: { id: 2 } }))).toEqual([
      { rooms: ['c:7'], channel: 'company-7-contact', payload: { action: 'update', contact: { id: 2 } } },
    ]);
    expect(await consumer.emissions(msg('contact.deleted.7.2', { companyId: 7, contactId: 2 }))).toEqual([
      { rooms: ['c:7'], channel: 'company-7-contact', payload: { action: 'delete', contactId: 2 } },
    ]);
  });

  it('sends a queue change or deletion to the whole company', async () => {
    const { consumer } = setup();
    const queue = {
      id: 1,
      companyId: 7,
      name: 'Vendas',
      color: '#ff0000',
      greetingMessage: '',
      outOfHoursMessage: '',
      orderQueue: null,
      createdAt: 'x',
      updatedAt: 'x',
    };
    expect(await consumer.emissions(msg('queue.updated.7.1', { companyId: 7, queue }))).toEqual([
      { rooms: ['c:7'], channel: 'company-7-queue', payload: { action: 'update', queue } },
    ]);
    expect(await consumer.emissions(msg('queue.deleted.7.1', { companyId: 7, queueId: 1 }))).toEqual([
      { rooms: ['c:7'], channel: 'company-7-queue', payload: { action: 'delete', queueId: 1 } },
    ]);
  });

  it('fans out nothing whose company is missing or disagrees with the subject', async () => {
    const { consumer } = setup();
    expect(await consumer.emissions(msg('ticket.updated.8.5', { companyId: 7, ticket: ticket(3) }))).toEqual([]);
    expect(await consumer.emissions(msg('ticket.updated.7.5', { ticket: ticket(3) }))).toEqual([]);
    expect(await consumer.emissions(msg('ticket.updated.7.5', { companyId: 7, ticket: { ...ticket(3), companyId: 8 } }))).toEqual([]);
    expect(await consumer.emissions(msg('queue.updated.7.1', { companyId: 7, queue: { id: 1, companyId: 8 } }))).toEqual([]);
    expect(await consumer.emissions(msg('queue.deleted.7.1', { companyId: 7, queueId: 'x' }))).toEqual([]);
  });

  it('keeps a company’s tickets and messages, alone or in batches, on one order key', () => {
    expect(ticketsOrderKey('ticket.updated.7.5')).toBe(ticketsOrderKey('message.created.7.5'));
    // a batch holds many tickets' messages: a ticket's own event must not overtake it
    expect(ticketsOrderKey('message.batch.7.40')).toBe(ticketsOrderKey('ticket.updated.7.6'));
    expect(ticketsOrderKey('message.updated.7.6')).toBe(ticketsOrderKey('ticket.deleted.7.5'));
    expect(ticketsOrderKey('ticket.updated.8.5')).not.toBe(ticketsOrderKey('ticket.updated.7.5'));
    expect(ticketsOrderKey('contact.updated.7.5')).not.toBe(ticketsOrderKey('ticket.updated.7.5'));
  });

  it('fans out a message.batch as its events one by one, in their order', async () => {
    const a = { ...ticket(3), lastMessage: 'oi', unreadMessages: 1 };
    const b = { ...ticket(null, 9), id: 6, lastMessage: 'bom dia', unreadMessages: 1 };
    const a2 = { ...a, lastMessage: 'tudo bem?', unreadMessages: 2 };
    const events = [
      { verb: 'created', companyId: 7, ticket: a, message: { id: 1 }, contact: { id: 2 } },
      { verb: 'created', companyId: 7, ticket: b, message: { id: 2 }, contact: { id: 3 } },
      { verb: 'updated', companyId: 7, ticket: b, message: { id: 2, ack: 3 }, contact: { id: 3 } },
      { verb: 'created', companyId: 7, ticket: a2, message: { id: 3 }, contact: { id: 2 } },
    ];
    const alone = setup();
    const oneByOne = [];
    for (const { verb, ...e } of events) oneByOne.push(...(await alone.consumer.emissions(msg(`message.${verb}.7.${e.ticket.id}`, e))));
    const batched = setup();
    const out = await batched.consumer.emissions(msg('message.batch.7.1', { companyId: 7, events }));
    expect(out).toEqual(oneByOne);
    expect(out.map((e) => [e.channel, (e.payload as { action: string }).action])).toEqual([
      ['company-7-appMessage', 'create'],
      ['company-7-ticket', 'update'],
      ['company-7-appMessage', 'create'],
      ['company-7-ticket', 'update'],
      ['company-7-appMessage', 'update'],
      ['company-7-appMessage', 'create'],
    ]);
    expect(batched.places.map).toEqual(alone.places.map);
    // a batch of another company's name, or no batch at all, is not fanned out
    expect(await batched.consumer.emissions(msg('message.batch.8.1', { companyId: 7, events }))).toEqual([]);
    expect(await batched.consumer.emissions(msg('message.batch.7.1', { companyId: 7, events: 'x' }))).toEqual([]);
  });
});
