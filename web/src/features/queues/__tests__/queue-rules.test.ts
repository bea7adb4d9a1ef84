import { describe, expect, it } from '@jest/globals';
import type { QueueDto } from '@wa/contracts';
import {
  compareQueues,
  nativeColor,
  nextOptionNumber,
  queueEventChange,
  queueFormOf,
  queuePayload,
  removeQueue,
  upsertQueue,
  validateQueueForm,
  validateQueueOption,
} from '../queue-rules';
import { defaultWorkingHours, WEEKDAYS } from '../../settings/working-hours';
import { aQueue } from '../../../test/a-queue';

const names = (list: QueueDto[]) => list.map((q) => q.name);
const form = (extra: Partial<Parameters<typeof validateQueueForm>[0]> = {}) => ({
  name: 'Vendas',
  color: '#2e7d32',
  greetingMessage: '',
  outOfHoursMessage: '',
  orderQueue: '',
  schedules: null,
  promptId: '' as number | '',
  integrationId: '' as number | '',
  ...extra,
});

describe("queues list cache (company-<id>-queue events and this tab's saves)", () => {
  const list = [aQueue(1, 'Suporte', 1), aQueue(2, 'Vendas', 2), aQueue(3, 'Financeiro', null)];

  it('orders by orderQueue, queues without one last, then by name', () => {
    const shuffled = [aQueue(5, 'Zeta', null), aQueue(4, 'Beta', 2), aQueue(3, 'Alfa', null), aQueue(2, 'Gama', 1), aQueue(1, 'Alfa', 2)];
    expect([...shuffled].sort(compareQueues).map((q) => q.id)).toEqual([2, 1, 4, 3, 5]);
  });

  it('a new queue joins in its place', () => {
    expect(names(upsertQueue(list, aQueue(9, 'Cobrança', 2)))).toEqual(['Suporte', 'Cobrança', 'Vendas', 'Financeiro']);
    expect(names(upsertQueue(list, aQueue(9, 'Atendimento', null)))).toEqual(['Suporte', 'Vendas', 'Atendimento', 'Financeiro']);
    expect(names(upsertQueue(list, aQueue(9, 'Primeira', 0)))).toEqual(['Primeira', 'Suporte', 'Vendas', 'Financeiro']);
  });

  it('a changed queue is replaced (not doubled) and moves when its order changes', () => {
    const next = upsertQueue(list, aQueue(1, 'Suporte técnico', 3, { color: '#ff0000' }));
    expect(names(next)).toEqual(['Vendas', 'Suporte técnico', 'Financeiro']);
    expect(next.find((q) => q.id === 1)?.color).toBe('#ff0000');
    expect(next).toHaveLength(3);
    expect(list[0].name).toBe('Suporte');
  });

  it('a deleted queue leaves; an unknown id changes nothing', () => {
    expect(names(removeQueue(list, 2))).toEqual(['Suporte', 'Financeiro']);
    expect(removeQueue(list, 99)).toBe(list);
  });

  it('reads the event: update carries the queue, delete its id', () => {
    const q = aQueue(7, 'Nova', null);
    expect(queueEventChange({ action: 'update', queue: q })).toEqual({ queue: q });
    expect(queueEventChange({ action: 'delete', queueId: 7 })).toEqual({ removed: 7 });
  });
});

describe('queue form (spec 02 "Validation")', () => {
  it('name: required, 2 to 50 characters', () => {
    expect(validateQueueForm(form({ name: '  ' })).name).toBe('required');
    expect(validateQueueForm(form({ name: 'A' })).name).toBe('tooShort');
    expect(validateQueueForm(form({ name: 'A'.repeat(51) })).name).toBe('tooLong');
    expect(validateQueueForm(form({ name: 'A'.repeat(50) })).name).toBeUndefined();
  });

  it('colour: required, 3 to 9 characters', () => {
    expect(validateQueueForm(form({ color: '' })).color).toBe('required');
    expect(validateQueueForm(form({ color: '#f' })).color).toBe('tooShort');
    expect(validateQueueForm(form({ color: '#ff00ff001' })).color).toBe('tooLong');
    expect(validateQueueForm(form({ color: '#f00' })).color).toBeUndefined();
    expect(validateQueueForm(form({ color: '#ff00ff00' })).color).toBeUndefined();
  });

  it('greeting and out-of-hours messages are optional; the order, when given, is a whole number', () => {
    expect(validateQueueForm(form())).toEqual({});
    expect(validateQueueForm(form({ orderQueue: '2.5' })).orderQueue).toBe('integer');
    expect(validateQueueForm(form({ orderQueue: '3' })).orderQueue).toBeUndefined();
  });

  it('sends the trimmed name and colour, and no order as null', () => {
    expect(queuePayload(form({ name: ' Vendas ', color: ' #abc ', greetingMessage: 'Olá!', orderQueue: '' }))).toEqual({
      name: 'Vendas',
      color: '#abc',
      greetingMessage: 'Olá!',
      outOfHoursMessage: '',
      orderQueue: null,
      schedules: [],
    });
    expect(queuePayload(form({ orderQueue: '4' })).orderQueue).toBe(4);
  });

  it('edits what the queue has, the order as text', () => {
    expect(queueFormOf(aQueue(1, 'Vendas', 2, { greetingMessage: 'Oi' }))).toEqual({
      name: 'Vendas',
      color: '#2e7d32',
      greetingMessage: 'Oi',
      outOfHoursMessage: '',
      orderQueue: '2',
      schedules: null,
      promptId: '',
      integrationId: '',
    });
    expect(queueFormOf(aQueue(1, 'Vendas', null)).orderQueue).toBe('');
    expect(queueFormOf(null).name).toBe('');
  });

  it('prompt and integration: edited as the queue has them, sent (null for none) only when the form offers them', () => {
    const linked = queueFormOf(aQueue(1, 'Vendas', 1, { promptId: 4, integrationId: 9 }));
    expect(linked).toMatchObject({ promptId: 4, integrationId: 9 });
    expect(queueFormOf(aQueue(1, 'Vendas', 1, { promptId: null }))).toMatchObject({ promptId: '', integrationId: '' });
    expect(queueFormOf(null)).toMatchObject({ promptId: '', integrationId: '' });

    expect(queuePayload(linked, { prompt: true, integration: true })).toMatchObject({ promptId: 4, integrationId: 9 });
    expect(queuePayload(form(), { prompt: true, integration: true })).toMatchObject({ promptId: null, integrationId: null });
    // a field the plan does not offer is left out: the queue keeps what it has
    const onlyPrompt = queuePayload(linked, { prompt: true });
    expect(onlyPrompt.promptId).toBe(4);
    expect('integrationId' in onlyPrompt).toBe(false);
    const neither = queuePayload(linked);
    expect('promptId' in neither).toBe(false);
    expect('integrationId' in neither).toBe(false);
    expect(queuePayload(form({ integrationId: 3 }), { integration: true })).toMatchObject({ integrationId: 3 });
  });

  it('working hours round-trip: the saved ones as seven days, sent back in week order; none saved and none kept is sent as []', () => {
    const monday = { weekday: 'Segunda-feira', weekdayEn: 'monday' as const, startTime: '09:00', endTime: '17:00' };
    const saturday = { weekday: 'Sábado', weekdayEn: 'saturday' as const, startTime: '08:00', endTime: '12:00' };
    const edited = queueFormOf(aQueue(1, 'Vendas', 1, { schedules: [saturday, monday] }));
    expect(edited.schedules).toHaveLength(7);
    expect(edited.schedules?.[1]).toEqual(monday);
    expect(edited.schedules?.[0]).toEqual({ weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' });
    const sent = queuePayload(edited).schedules;
    expect(sent.map((d) => d.weekdayEn)).toEqual(WEEKDAYS.map((d) => d.weekdayEn));
    expect(sent.filter((d) => d.startTime !== d.endTime)).toEqual([monday, saturday]);
    // and what the server keeps comes back the same
    expect(queueFormOf(aQueue(1, 'Vendas', 1, { schedules: sent })).schedules).toEqual(sent);

    // a queue without hours (new, or none saved) sends none until the schedules tab keeps some
    expect(queueFormOf(null).schedules).toBeNull();
    expect(queueFormOf(aQueue(1, 'Vendas', 1, { schedules: [] })).schedules).toBeNull();
    expect(queuePayload(form()).schedules).toEqual([]);
    expect(queuePayload(form({ schedules: defaultWorkingHours() })).schedules).toEqual(defaultWorkingHours());
  });

  it('the colour picker shows #rrggbb', () => {
    expect(nativeColor('#ABC')).toBe('#aabbcc');
    expect(nativeColor('#1A2B3C')).toBe('#1a2b3c');
    expect(nativeColor('#1a2b3cff')).toBe('#1a2b3c');
    expect(nativeColor('blue')).toBe('#000000');
  });
});

describe('chatbot options', () => {
  const level = [{ option: '1' }, { option: '2' }, { option: '5' }];
  const option = (o: string, title = 'Vendas') => ({ option: o, title, message: '' });

  it('title and option are required', () => {
    expect(validateQueueOption({ option: '', title: ' ', message: '' }, [])).toEqual({ option: 'required', title: 'required' });
  });

  it("an option is a number from 1 to 999: 0 and # are the bot's own keys", () => {
    for (const bad of ['0', '#', '1000', '01', 'a', '-1', '1.5']) expect(validateQueueOption(option(bad), []).option).toBe('option');
    for (const good of ['1', '9', '42', '999']) expect(validateQueueOption(option(good), [])).toEqual({});
  });

  it('an option may not repeat on its level', () => {
    expect(validateQueueOption(option('2'), level).option).toBe('duplicate');
    expect(validateQueueOption(option(' 5 '), level).option).toBe('duplicate');
    expect(validateQueueOption(option('3'), level)).toEqual({});
  });

  it('offers the number after the highest of the level', () => {
    expect(nextOptionNumber([])).toBe('1');
    expect(nextOptionNumber(level)).toBe('6');
    expect(nextOptionNumber([{ option: '999' }])).toBe('');
  });
});
