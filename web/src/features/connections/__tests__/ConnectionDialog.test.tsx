import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor, within } from '@testing-library/react';
import type { PlanDto, UserDto, WhatsappDto } from '@wa/contracts';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { renderWithProviders } from '../../../test/render';
import { aPrompt } from '../../../test/a-prompt';
import { aQueue } from '../../../test/a-queue';
import { ConnectionDialog } from '../ConnectionDialog';

/** A connection as the server answers it, for the tests. */
function aConnection(extra: Partial<WhatsappDto> = {}): WhatsappDto {
  return {
    id: 3,
    companyId: 1,
    name: 'Vendas',
    status: 'CONNECTED',
    qrcode: '',
    retries: 0,
    isDefault: true,
    token: null,
    greetingMessage: 'Olá!',
    complationMessage: 'Obrigado pelo contato!',
    outOfHoursMessage: 'Estamos fechados agora.',
    ratingMessage: 'Dê uma nota de 1 a 5',
    expiresInactiveMessage: 'Encerrado por inatividade.',
    expiresTicket: 30,
    timeToTransfer: 10,
    transferQueueId: 6,
    timeUseBotQueues: 60,
    maxUseBotQueues: 2,
    provider: 'beta',
    channel: 'sandbox',
    promptId: null,
    number: '5511999990000',
    queues: [{ id: 5, name: 'Vendas', color: '#2e7d32' }],
    queueIds: [5],
    campaignDailyLimit: 0,
    campaignWarmup: false,
    campaignHours: '',
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...extra,
  };
}

const realFetch = globalThis.fetch;
let calls: Array<{ method: string; path: string; body: unknown }> = [];

beforeEach(() => {
  calls = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    const text = req.method === 'GET' ? '' : await req.clone().text();
    const sent = text ? (JSON.parse(text) as Partial<WhatsappDto>) : undefined;
    calls.push({ method: req.method, path: url.pathname, body: sent });
    let body: unknown = {};
    if (url.pathname === '/queue') body = [aQueue(5, 'Vendas', 1), aQueue(6, 'Suporte', 2)];
    else if (url.pathname === '/prompt') body = { prompts: [aPrompt(7, 'Atendente'), aPrompt(8, 'Vendedor')], count: 2, hasMore: false };
    else if (url.pathname.startsWith('/whatsapp')) body = { ...aConnection(), ...sent };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

const writes = () => calls.filter((c) => c.method !== 'GET');

/** Opens the dialog, waits for the company's queues, and brings the chatbot tab to the front. */
async function openChatbotTab(whatsapp: WhatsappDto | null, opts: { store?: ReturnType<typeof makeStore> } = {}) {
  const onClose = jest.fn();
  const r = renderWithProviders(<ConnectionDialog whatsapp={whatsapp} onClose={onClose} />, opts);
  const dialog = await waitFor(() => r.getByTestId('connection-dialog'));
  fireEvent.click(within(dialog).getByTestId('connection-tab-chatbot'));
  await waitFor(() => expect(within(dialog).getByRole('option', { name: 'Suporte' })).toBeTruthy());
  const field = (label: string) => within(dialog).getByLabelText(label) as HTMLInputElement;
  return { r, dialog, onClose, field };
}

const LABELS = {
  complationMessage: 'Mensagem de conclusão',
  outOfHoursMessage: 'Mensagem de fora de expediente',
  ratingMessage: 'Mensagem de avaliação',
  expiresInactiveMessage: 'Mensagem de encerramento por inatividade',
  expiresTicket: 'Encerrar chats abertos após x minutos',
  timeToTransfer: 'Transferir após x minutos',
  timeUseBotQueues: 'Intervalo (minutos) entre envios de bot',
  maxUseBotQueues: 'Quantidade máxima de vezes que o chatbot vai ser enviado',
  transferQueueId: 'Fila de transferência',
} as const;

describe("connection dialog: the chatbot settings (Whaticket's connection form)", () => {
  it('editing a connection shows its settings', async () => {
    const { field } = await openChatbotTab(aConnection());
    expect(field(LABELS.complationMessage).value).toBe('Obrigado pelo contato!');
    expect(field(LABELS.outOfHoursMessage).value).toBe('Estamos fechados agora.');
    expect(field(LABELS.ratingMessage).value).toBe('Dê uma nota de 1 a 5');
    expect(field(LABELS.expiresInactiveMessage).value).toBe('Encerrado por inatividade.');
    expect(field(LABELS.expiresTicket).value).toBe('30');
    expect(field(LABELS.timeToTransfer).value).toBe('10');
    expect(field(LABELS.timeUseBotQueues).value).toBe('60');
    expect(field(LABELS.maxUseBotQueues).value).toBe('2');
    const transfer = field(LABELS.transferQueueId) as unknown as HTMLSelectElement;
    expect(transfer.value).toBe('6');
    expect(transfer.selectedOptions[0]?.textContent).toBe('Suporte');
  });

  it('sends the changed settings with the connection: numbers as numbers, no transfer queue as null', async () => {
    const { field, onClose, dialog } = await openChatbotTab(aConnection());
    fireEvent.change(field(LABELS.complationMessage), { target: { value: 'Até logo!' } });
    fireEvent.change(field(LABELS.outOfHoursMessage), { target: { value: 'Voltamos às 8h.' } });
    fireEvent.change(field(LABELS.ratingMessage), { target: { value: 'Avalie de 1 a 3' } });
    fireEvent.change(field(LABELS.expiresInactiveMessage), { target: { value: 'Sem resposta, encerramos.' } });
    fireEvent.change(field(LABELS.expiresTicket), { target: { value: '120' } });
    fireEvent.change(field(LABELS.timeToTransfer), { target: { value: '0' } });
    fireEvent.change(field(LABELS.timeUseBotQueues), { target: { value: '15' } });
    fireEvent.change(field(LABELS.maxUseBotQueues), { target: { value: '5' } });
    fireEvent.change(field(LABELS.transferQueueId), { target: { value: '' } });
    fireEvent.click(within(dialog).getByTestId('connection-save'));

    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toMatchObject({ method: 'PUT', path: '/whatsapp/3' });
    expect(writes()[0]?.body).toEqual({
      // the general fields, as they were
      name: 'Vendas',
      isDefault: true,
      greetingMessage: 'Olá!',
      queueIds: [5],
      token: null,
      // the chatbot's
      complationMessage: 'Até logo!',
      outOfHoursMessage: 'Voltamos às 8h.',
      ratingMessage: 'Avalie de 1 a 3',
      expiresInactiveMessage: 'Sem resposta, encerramos.',
      expiresTicket: 120,
      timeToTransfer: 0,
      transferQueueId: null,
      timeUseBotQueues: 15,
      maxUseBotQueues: 5,
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('a negative number shows an error on its field and sends nothing; corrected, the connection is saved', async () => {
    const { field, onClose, dialog } = await openChatbotTab(aConnection());
    fireEvent.change(field(LABELS.timeToTransfer), { target: { value: '-5' } });
    fireEvent.change(field(LABELS.maxUseBotQueues), { target: { value: '1.5' } });
    // saved from the general tab, the chatbot tab comes back to show what is wrong
    fireEvent.click(within(dialog).getByTestId('connection-tab-general'));
    await waitFor(() => expect(within(dialog).getByTestId('connection-tab-general').getAttribute('aria-selected')).toBe('true'));
    fireEvent.click(within(dialog).getByTestId('connection-save'));

    await waitFor(() => expect(within(dialog).getAllByText('Informe um número inteiro de 0 a 1.000.000')).toHaveLength(2));
    expect(within(dialog).getByTestId('connection-tab-chatbot').getAttribute('aria-selected')).toBe('true');
    expect(field(LABELS.timeToTransfer).getAttribute('aria-invalid')).toBe('true');
    expect(field(LABELS.expiresTicket).getAttribute('aria-invalid')).toBeNull();
    expect(writes()).toHaveLength(0);
    expect(onClose).not.toHaveBeenCalled();

    fireEvent.change(field(LABELS.timeToTransfer), { target: { value: '5' } });
    fireEvent.change(field(LABELS.maxUseBotQueues), { target: { value: '' } });
    expect(within(dialog).getByText('Required')).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId('connection-save'));
    expect(writes()).toHaveLength(0);

    fireEvent.change(field(LABELS.maxUseBotQueues), { target: { value: '4' } });
    expect(within(dialog).queryByText('Informe um número inteiro de 0 a 1.000.000')).toBeNull();
    fireEvent.click(within(dialog).getByTestId('connection-save'));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]?.body).toMatchObject({ timeToTransfer: 5, maxUseBotQueues: 4, expiresTicket: 30, transferQueueId: 6 });
  });

  it("a new connection starts with Whaticket's defaults and sends them with the kind chosen", async () => {
    const { field, dialog } = await openChatbotTab(null);
    expect(field(LABELS.expiresTicket).value).toBe('0');
    expect(field(LABELS.timeToTransfer).value).toBe('0');
    expect(field(LABELS.timeUseBotQueues).value).toBe('0');
    expect(field(LABELS.maxUseBotQueues).value).toBe('3');
    expect((field(LABELS.transferQueueId) as unknown as HTMLSelectElement).value).toBe('');
    fireEvent.change(field(LABELS.transferQueueId), { target: { value: '5' } });
    fireEvent.click(within(dialog).getByTestId('connection-tab-general'));
    fireEvent.change(within(dialog).getByTestId('connection-name'), { target: { value: 'Suporte' } });
    fireEvent.click(within(dialog).getByTestId('connection-save'));

    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toMatchObject({ method: 'POST', path: '/whatsapp' });
    expect(writes()[0]?.body).toMatchObject({
      name: 'Suporte',
      channel: 'baileys',
      complationMessage: '',
      expiresTicket: 0,
      timeToTransfer: 0,
      transferQueueId: 5,
      timeUseBotQueues: 0,
      maxUseBotQueues: 3,
    });
    expect('promptId' in (writes()[0]?.body as object)).toBe(false);
  });
});

function anAdmin(plan: Partial<PlanDto>): UserDto {
  return {
    id: 1,
    name: 'Admin',
    email: 'admin@x.com',
    profile: 'admin',
    companyId: 1,
    whatsappId: null,
    allTicket: 'enabled',
    super: false,
    online: true,
    queues: [],
    queueIds: [],
    company: {
      id: 1,
      name: 'Loja',
      dueDate: '2027-01-01',
      status: true,
      planId: 1,
      plan: { id: 1, name: 'P', users: 1, connections: 1, queues: 1, value: 0, ...plan } as PlanDto,
      settings: [],
    },
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
  };
}

describe('connection dialog: the prompt (spec 02 §6, plan-gated)', () => {
  it("with the plan's useOpenAi: the connection's prompt is shown and sent (null for none)", async () => {
    const store = makeStore();
    store.dispatch(sessionStarted({ token: 't', user: anAdmin({ useOpenAi: true }) }));
    const { field, dialog } = await openChatbotTab(aConnection({ promptId: 8 }), { store });
    await waitFor(() => expect(within(dialog).getByRole('option', { name: 'Vendedor' })).toBeTruthy());
    expect(field('Prompt').value).toBe('8');
    fireEvent.click(within(dialog).getByTestId('connection-save'));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]?.body).toMatchObject({ promptId: 8 });

    fireEvent.change(field('Prompt'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByTestId('connection-save'));
    await waitFor(() => expect(writes()).toHaveLength(2));
    expect(writes()[1]?.body).toMatchObject({ promptId: null });
  });

  it('without it: no prompt picker, nothing sent for it (the connection keeps its prompt)', async () => {
    const { dialog } = await openChatbotTab(aConnection({ promptId: 8 }));
    expect(within(dialog).queryByTestId('connection-prompt')).toBeNull();
    fireEvent.click(within(dialog).getByTestId('connection-save'));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect('promptId' in (writes()[0]?.body as object)).toBe(false);
    expect(calls.some((c) => c.path === '/prompt')).toBe(false);
  });
});

describe('connection dialog: the campaign pace (issue 40, with the campaign area)', () => {
  it('with campaigns on: the daily cap, warm-up and sending hours are shown, checked and sent', async () => {
    const store = makeStore();
    store.dispatch(sessionStarted({ token: 't', user: anAdmin({ useCampaigns: true }) }));
    const r = renderWithProviders(<ConnectionDialog whatsapp={aConnection({ campaignDailyLimit: 200 })} onClose={jest.fn()} />, { store });
    const dialog = await waitFor(() => r.getByTestId('connection-dialog'));
    fireEvent.click(within(dialog).getByTestId('connection-tab-campaigns'));
    const cap = within(dialog).getByTestId('connection-campaign-daily-limit') as HTMLInputElement;
    expect(cap.value).toBe('200');
    fireEvent.change(within(dialog).getByTestId('connection-campaign-hours'), { target: { value: '8h-20h' } });
    fireEvent.click(within(dialog).getByTestId('connection-tab-general'));
    fireEvent.click(within(dialog).getByTestId('connection-save'));
    // the tab with the problem comes to the front, nothing is sent
    await waitFor(() => expect(within(dialog).getByTestId('connection-tab-campaigns').getAttribute('aria-selected')).toBe('true'));
    within(dialog).getByText('Informe o horário como HH:MM-HH:MM');
    expect(writes()).toHaveLength(0);
    fireEvent.change(within(dialog).getByTestId('connection-campaign-hours'), { target: { value: '08:00-20:00' } });
    fireEvent.click(within(dialog).getByLabelText('Aquecimento do número (limite crescente nas primeiras semanas)'));
    await waitFor(() => expect(within(dialog).getByTestId('connection-campaign-warmup').getAttribute('data-state')).toBe('checked'));
    fireEvent.click(within(dialog).getByTestId('connection-save'));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]?.body).toMatchObject({ campaignDailyLimit: 200, campaignWarmup: true, campaignHours: '08:00-20:00' });
  });

  it('without campaigns in the plan: no campaign tab, nothing sent for it', async () => {
    const r = renderWithProviders(<ConnectionDialog whatsapp={aConnection()} onClose={jest.fn()} />);
    const dialog = await waitFor(() => r.getByTestId('connection-dialog'));
    expect(within(dialog).queryByTestId('connection-tab-campaigns')).toBeNull();
    fireEvent.click(within(dialog).getByTestId('connection-save'));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect('campaignDailyLimit' in (writes()[0]?.body as object)).toBe(false);
  });
});
