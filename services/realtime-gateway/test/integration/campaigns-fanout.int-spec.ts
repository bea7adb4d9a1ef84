import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import {
  CampaignChannels,
  CampaignSubjects,
  type CampaignChangedEvent,
  type CampaignDto,
  type CampaignMessageSent,
  type CampaignReport,
  type CampaignSend,
  type ContactListChangedEvent,
  type ContactListDto,
  type ContactListImportProgress,
  type ContactListItemDto,
} from '@wa/contracts';
import {
  connect,
  deployment,
  dropDurable,
  newCompanyId,
  newId,
  newUser,
  settle,
  startReplica,
  type Client,
  type Replica,
} from './harness.js';

const at = () => new Date().toISOString();

function campaign(companyId: number, id: number, status: CampaignDto['status'] = 'INATIVA'): CampaignDto {
  const now = at();
  const texts = { message2: '', message3: '', message4: '', message5: '' };
  return {
    id,
    name: 'Black Friday',
    message1: 'Olá {nome}',
    ...texts,
    confirmationMessage1: '',
    confirmationMessage2: '',
    confirmationMessage3: '',
    confirmationMessage4: '',
    confirmationMessage5: '',
    status,
    confirmation: false,
    scheduledAt: null,
    completedAt: null,
    whatsappId: 1,
    contactListId: 2,
    tagListId: 'Nenhuma',
    companyId,
    mediaPath: null,
    mediaName: null,
    fileListId: null,
    statusReason: null,
    whatsapp: { id: 1, name: 'Main' },
    contactList: { id: 2, name: 'Clientes' },
    createdAt: now,
    updatedAt: now,
  };
}

const report: CampaignReport = {
  valid: 3,
  invalid: 1,
  sent: 2,
  delivered: 1,
  read: 0,
  failed: 0,
  pending: 1,
  confirmationRequested: 0,
  confirmed: 0,
  optedOut: 0,
};

describe('realtime-gateway: the campaign pages live', () => {
  let settings: ReturnType<typeof deployment>;
  let gw: Replica;
  const clients: Client[] = [];
  const open = async (token: string) => {
    const c = await connect(gw.baseUrl, token);
    clients.push(c);
    return c;
  };
  const publish = (subject: string, data: unknown) => gw.bus.publish(subject, data, { msgId: randomUUID() });

  beforeAll(async () => {
    settings = deployment();
    gw = await startReplica(settings);
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    try {
      await dropDurable(gw.bus, settings.REALTIME_DURABLE);
    } finally {
      await gw.close();
    }
  });

  it("sends a campaign's changes on company-<id>-campaign to its company's sockets only; no send of the lane", async () => {
    const companyA = newCompanyId();
    const admin = await open((await newUser(gw, companyA, { profile: 'admin' })).token);
    const agent = await open((await newUser(gw, companyA, {})).token);
    const other = await open((await newUser(gw, newCompanyId(), { profile: 'admin' })).token);
    const id = newId();
    const created = campaign(companyA, id);
    const running = { ...campaign(companyA, id, 'EM_ANDAMENTO'), updatedAt: at() };
    const events: CampaignChangedEvent[] = [
      { companyId: companyA, action: 'create', record: created, at: at() },
      { companyId: companyA, action: 'update', record: running, report, at: at() },
      { companyId: companyA, action: 'delete', campaignId: id, at: at() },
    ];
    for (const e of events) await publish(CampaignSubjects.changed(companyA, id), e);
    // the lane's sends and the sent messages are many and no page's: never on a socket
    const send: CampaignSend = {
      companyId: companyA,
      connectionId: 1,
      campaignId: id,
      shippingId: 1,
      waMessageId: 'CAMP1',
      to: '5511999990000',
      body: 'Olá',
    };
    await publish(CampaignSubjects.send(companyA, 1), send);
    const sent: CampaignMessageSent = {
      companyId: companyA,
      connectionId: 1,
      campaignId: id,
      number: '5511999990000',
      waMessageId: 'CAMP1',
      body: 'Olá',
      sentAt: Date.now(),
    };
    await publish(CampaignSubjects.sent(companyA, 1), sent);
    // a payload naming another company than its subject goes nowhere
    await publish(CampaignSubjects.changed(companyA, id), { ...events[0], companyId: companyA + 1 });

    const channel = CampaignChannels.campaign(companyA);
    await settle(() => admin.events(channel).length === 3 && agent.events(channel).length === 3);
    expect(admin.events(channel)).toEqual([
      { action: 'create', record: created },
      { action: 'update', record: running, report },
      { action: 'delete', campaignId: id, id },
    ]);
    expect(agent.events(channel)).toEqual(admin.events(channel));
    expect([...admin.received.keys()]).toEqual([channel]);
    expect(other.received.size).toBe(0);
  });

  it('sends contact list changes on company-<id>-ContactList and their items on company-<id>-ContactListItem, to the company only', async () => {
    const companyA = newCompanyId();
    const admin = await open((await newUser(gw, companyA, { profile: 'admin' })).token);
    const other = await open((await newUser(gw, newCompanyId(), { profile: 'admin' })).token);
    const listId = newId();
    const now = at();
    const list: ContactListDto = { id: listId, name: 'Clientes', companyId: companyA, contactsCount: 0, createdAt: now, updatedAt: now };
    const item: ContactListItemDto = {
      id: newId(),
      name: 'Ana',
      number: '5511987654321',
      email: '',
      isWhatsappValid: null,
      contactListId: listId,
      companyId: companyA,
      createdAt: now,
      updatedAt: now,
    };
    const checked = { ...item, isWhatsappValid: true, updatedAt: new Date(Date.now() + 1000).toISOString() };
    const progress: ContactListImportProgress = {
      contactListId: listId,
      processed: 10,
      total: 10,
      added: 8,
      duplicates: 1,
      invalid: 1,
      done: true,
    };
    const base = { companyId: companyA, contactListId: listId, at: now };
    const events: ContactListChangedEvent[] = [
      { ...base, action: 'create', record: list },
      { ...base, action: 'item', item },
      { ...base, action: 'item', item: checked },
      { ...base, action: 'import', progress },
      { ...base, action: 'items' },
      { ...base, action: 'update', record: { ...list, contactsCount: 9 } },
      { ...base, action: 'item-delete', itemId: item.id },
      { ...base, action: 'delete' },
    ];
    for (const e of events) await publish(CampaignSubjects.list(companyA, listId), e);

    const lists = CampaignChannels.contactList(companyA);
    const items = CampaignChannels.contactListItem(companyA);
    await settle(() => admin.events(lists).length === 4 && admin.events(items).length === 4);
    expect(admin.events(lists)).toEqual([
      { action: 'create', record: list },
      { action: 'import', progress },
      { action: 'update', record: { ...list, contactsCount: 9 } },
      { action: 'delete', id: listId },
    ]);
    expect(admin.events(items)).toEqual([
      { action: 'create', record: item },
      { action: 'update', record: checked },
      { action: 'reload', contactListId: listId },
      { action: 'delete', id: item.id },
    ]);
    expect(other.received.size).toBe(0);
  });
});
