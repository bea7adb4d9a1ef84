import { describe, expect, it } from '@jest/globals';
import {
  botReply,
  INVALID_OPTION,
  menuText,
  ratingOf,
  ratingRequestText,
  type BotInput,
  type BotOption,
  type BotQueue,
  type BotState,
} from './bot-rules.js';

const queue = (id: number, name: string, extra: Partial<BotQueue> = {}): BotQueue => ({
  id,
  name,
  greetingMessage: '',
  outOfHoursMessage: '',
  schedules: [],
  ...extra,
});
const sales = queue(1, 'Vendas', { greetingMessage: 'Bem-vindo às vendas' });
const support = queue(2, 'Suporte', { greetingMessage: 'Suporte técnico' });
const billing = queue(3, 'Financeiro', { greetingMessage: 'Financeiro aqui' });
// Suporte: 1 Internet (1 Lenta, 2 Caiu), 2 Telefone
const options: BotOption[] = [
  { id: 10, queueId: 2, parentId: null, option: 1, title: 'Internet', message: 'Sobre a internet:' },
  { id: 11, queueId: 2, parentId: null, option: 2, title: 'Telefone', message: 'Um técnico vai ligar.' },
  { id: 12, queueId: 2, parentId: 10, option: 1, title: 'Lenta', message: 'Reinicie o modem.' },
  { id: 13, queueId: 2, parentId: 10, option: 2, title: 'Caiu', message: 'Verificando a rede.' },
];
// Monday 2026-11-23 15:00 in São Paulo
const monday3pm = new Date('2026-11-23T18:00:00Z');

function input(state: BotState | null, body: string, extra: Partial<BotInput> = {}): BotInput {
  return {
    state,
    body,
    now: monday3pm,
    queues: [sales, support, billing],
    options,
    connection: {
      greetingMessage: 'Olá {{firstName}}! Escolha:',
      maxUseBotQueues: 2,
      timeUseBotQueues: 0,
      transferQueueId: 3,
      outOfHoursMessage: 'Estamos fechados',
    },
    settings: { scheduleType: 'disabled', companySchedules: [], sendGreetingMessageOneQueues: true, timeZone: 'America/Sao_Paulo' },
    queueId: null,
    ...extra,
  };
}

/** Runs a conversation: each answer after the first message, the state carried over. */
function converse(bodies: string[], extra: Partial<BotInput> = {}) {
  let state: BotState | null = null;
  let queueId: number | null = extra.queueId ?? null;
  const turns = [];
  for (const body of bodies) {
    const out = botReply(input(state, body, { ...extra, queueId }));
    turns.push(out);
    state = out.state;
    queueId = out.queueId;
  }
  return turns;
}

describe('botReply', () => {
  it('greets a new ticket with the queues menu, then a number moves it into the queue and down its options', () => {
    const [first, two, one, leaf] = converse(['oi', '2', '1', '2']);
    expect(first?.replies).toEqual(['Olá {{firstName}}! Escolha:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte\n*[ 3 ]* - Financeiro']);
    expect(first?.chatbot).toBe(true);
    expect(two?.queueId).toBe(2);
    expect(two?.replies[0]).toBe(
      'Suporte técnico\n\n*[ 1 ]* - Internet\n*[ 2 ]* - Telefone\n\n*[ 0 ]* - Menu anterior\n*[ # ]* - Menu inicial',
    );
    expect(one?.replies[0]).toContain('Sobre a internet:\n\n*[ 1 ]* - Lenta\n*[ 2 ]* - Caiu');
    expect(leaf).toMatchObject({ replies: ['Verificando a rede.'], queueId: 2, chatbot: false, state: { step: 'done' } });
  });

  it('sends the file of the queue entered and of the option picked with their texts; a menu with no file sends none', () => {
    const withFiles = {
      queues: [sales, { ...support, mediaPath: '1/q/suporte.pdf' }, billing],
      options: options.map((o) =>
        o.id === 10 ? { ...o, mediaPath: '1/o/internet.png' } : o.id === 13 ? { ...o, mediaPath: '1/o/caiu.jpg' } : o,
      ),
    };
    const [first, two, one, leaf] = converse(['oi', '2', '1', '2'], withFiles);
    expect(first?.mediaPath).toBeUndefined();
    expect(two).toMatchObject({ mediaPath: '1/q/suporte.pdf', replies: [expect.stringContaining('Suporte técnico')] });
    expect(one).toMatchObject({ mediaPath: '1/o/internet.png', replies: [expect.stringContaining('Sobre a internet:')] });
    expect(leaf).toMatchObject({ mediaPath: '1/o/caiu.jpg', replies: ['Verificando a rede.'] });
    // an unknown answer repeats the menu without the file
    const [, , miss] = converse(['oi', '2', 'x'], withFiles);
    expect(miss?.mediaPath).toBeUndefined();
  });

  it('goes back a level with 0 and to the first menu with #', () => {
    const turns = converse(['oi', '2', '1', '0', '#']);
    expect(turns[3]?.replies[0]).toContain('*[ 1 ]* - Internet');
    expect(turns[3]?.state.parentId).toBeNull();
    expect(turns[4]?.replies[0]).toContain('*[ 3 ]* - Financeiro');
    expect(turns[4]?.state.step).toBe('queues');
  });

  it('repeats the menu for an unknown answer up to the limit, then hands the ticket to the transfer queue and stays quiet', () => {
    const turns = converse(['oi', 'quero falar', 'hein?', 'humano', 'alô']);
    expect(turns[1]?.replies[0]).toMatch(new RegExp(`^${INVALID_OPTION.replace(/[!.?]/g, '\\$&')}`));
    expect(turns[2]?.replies).toHaveLength(1);
    expect(turns[3]).toMatchObject({ replies: [], queueId: 3, chatbot: false, state: { step: 'done' } });
    expect(turns[4]).toMatchObject({ replies: [], queueId: 3, chatbot: false });
  });

  it('counts unknown answers only within timeUseBotQueues', () => {
    const connection = { greetingMessage: 'Olá', maxUseBotQueues: 1, timeUseBotQueues: 10, transferQueueId: null };
    const start = botReply(input(null, 'oi', { connection }));
    const miss = botReply(input(start.state, 'x', { connection }));
    expect(miss.replies).toHaveLength(1);
    // 11 minutes later the count starts again
    const later = botReply(input(miss.state, 'y', { connection, now: new Date(monday3pm.getTime() + 11 * 60_000) }));
    expect(later.replies).toHaveLength(1);
    // within the window, one more is past the limit: no transfer queue, the ticket stays where it is, waiting
    const past = botReply(input(later.state, 'z', { connection, now: new Date(monday3pm.getTime() + 12 * 60_000) }));
    expect(past).toMatchObject({ replies: [], queueId: null, chatbot: false });
  });

  it('sends the out-of-hours text once per period and starts afresh when the hours open', () => {
    const settings = {
      scheduleType: 'company',
      companySchedules: [
        { weekday: 'Segunda-feira', weekdayEn: 'monday' as const, startTime: '08:00', endTime: '12:00' },
        { weekday: 'Terça-feira', weekdayEn: 'tuesday' as const, startTime: '08:00', endTime: '12:00' },
      ],
      sendGreetingMessageOneQueues: true,
      timeZone: 'America/Sao_Paulo',
    };
    const first = botReply(input(null, 'oi', { settings }));
    expect(first.replies).toEqual(['Estamos fechados']);
    expect(first.state.quietUntil).toBe('2026-11-24T11:00:00.000Z');
    const again = botReply(input(first.state, 'alguém?', { settings, now: new Date(monday3pm.getTime() + 3600_000) }));
    expect(again.replies).toEqual([]);
    // Tuesday 09:00 there: open, and the bot greets as for a new ticket
    const open = botReply(input(again.state, 'bom dia', { settings, now: new Date('2026-11-24T12:00:00Z') }));
    expect(open.replies[0]).toContain('*[ 1 ]* - Vendas');
    // Tuesday 13:00 there: closed again, a new period: once more
    const closed = botReply(input(open.state, 'e aí', { settings, now: new Date('2026-11-24T16:00:00Z') }));
    expect(closed.replies).toEqual(['Estamos fechados']);
  });

  it('answers with a queue’s own out-of-hours text when scheduleType is queue and the picked queue is closed', () => {
    const closedSales = {
      ...sales,
      outOfHoursMessage: 'Vendas abre às 8h',
      schedules: [{ weekday: 'Segunda-feira', weekdayEn: 'monday' as const, startTime: '08:00', endTime: '09:00' }],
    };
    const settings = { scheduleType: 'queue', companySchedules: [], sendGreetingMessageOneQueues: true, timeZone: 'America/Sao_Paulo' };
    const turns = converse(['oi', '1'], { settings, queues: [closedSales, support, billing] });
    expect(turns[1]).toMatchObject({ replies: ['Vendas abre às 8h'], queueId: 1, chatbot: false });
  });

  it('with a single queue: its options when it has some, else the greeting when the company greets single-queue customers', () => {
    const withOptions = botReply(input(null, 'oi', { queues: [support], queueId: 2 }));
    expect(withOptions.replies[0]).toContain('*[ 2 ]* - Telefone');
    const plain = botReply(input(null, 'oi', { queues: [sales], queueId: 1 }));
    expect(plain).toMatchObject({ replies: ['Bem-vindo às vendas'], chatbot: false, state: { step: 'done' } });
    const silent = botReply(
      input(null, 'oi', {
        queues: [sales],
        queueId: 1,
        settings: { scheduleType: 'disabled', companySchedules: [], sendGreetingMessageOneQueues: false, timeZone: 'UTC' },
      }),
    );
    expect(silent.replies).toEqual([]);
    expect(botReply(input(null, 'oi', { queues: [] })).replies).toEqual([]);
  });
});

describe('a queue with an AI prompt', () => {
  const assistant = queue(4, 'Assistente', { promptId: 7, greetingMessage: 'Olá, sou o assistente' });

  it('answers through the prompt from the first message on a single queue, and hands over when a person is asked for', () => {
    const first = botReply(input(null, 'qual o horário?', { queues: [assistant], queueId: 4 }));
    expect(first).toMatchObject({ replies: [], delegate: true, chatbot: true, state: { step: 'delegate' } });
    const next = botReply(input(first.state, 'e no sábado?', { queues: [assistant], queueId: 4 }));
    expect(next).toMatchObject({ delegate: true, chatbot: true });
    const human = botReply(input(next.state, 'quero falar com um atendente', { queues: [assistant], queueId: 4 }));
    expect(human).toMatchObject({ replies: [], chatbot: false, state: { step: 'done' } });
    expect(human.delegate).toBeFalsy();
    expect(botReply(input(null, 'me passa para um humano', { queues: [assistant], queueId: 4 }))).toMatchObject({
      chatbot: false,
      state: { step: 'done' },
    });
  });

  it('picked from the menu: its greeting, then the prompt answers what follows; # goes back to the menu', () => {
    const turns = converse(['oi', '4', 'tem entrega?', '#'], { queues: [sales, support, billing, assistant] });
    expect(turns[1]).toMatchObject({ replies: ['Olá, sou o assistente'], queueId: 4, state: { step: 'delegate' } });
    expect(turns[1]?.delegate).toBeFalsy();
    expect(turns[2]).toMatchObject({ replies: [], delegate: true });
    expect(turns[3]?.replies[0]).toContain('*[ 4 ]* - Assistente');
  });
});

describe('the texts', () => {
  it('numbers a menu as the product writes it', () => {
    expect(menuText('', [{ number: 1, title: 'A' }], false)).toBe('*[ 1 ]* - A');
  });

  it('asks for a rating of 1 to 3 and reads only those answers', () => {
    expect(ratingRequestText('Como foi?')).toMatch(/^Como foi\?\n\nDigite de 1 à 3/);
    expect(ratingOf(' 2 ')).toBe(2);
    expect(ratingOf('4')).toBeNull();
    expect(ratingOf('1 estrela')).toBeNull();
  });
});

describe('typebotText', () => {
  it('reads a Typebot rich-text block as lines of plain text', async () => {
    const { typebotText } = await import('./integration-agent.js');
    expect(
      typebotText({
        type: 'richText',
        richText: [
          { type: 'p', children: [{ text: 'Olá, ' }, { text: 'Maria', bold: true }] },
          { type: 'p', children: [{ text: 'Tudo bem?' }] },
        ],
      }),
    ).toBe('Olá, Maria\nTudo bem?');
    expect(typebotText({ type: 'markdown', markdown: ' *oi* ' })).toBe('*oi*');
    expect(typebotText(undefined)).toBe('');
  });
});
