import { beforeAll, describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { BusMessage } from '@wa/event-bus';
import type { TicketPlaces } from '../../realtime/ticket-places.js';
import { AnnouncementsConsumer } from './announcements.consumer.js';
import { PlatformListsConsumer } from './platform-lists.consumer.js';
import { SettingsConsumer } from './settings.consumer.js';
import { TicketsConsumer } from './tickets.consumer.js';

const msg = (subject: string, data: unknown): BusMessage<unknown> => ({
  subject,
  data,
  msgId: 'x',
  streamSeq: 1,
  deliveryCount: 1,
  attempt: 1,
  headers: {},
});
const announcement = {
  id: 4,
  title: 'Manutenção',
  text: 'sábado',
  priority: 1,
  status: true,
  mediaPath: null,
  mediaName: null,
  mediaUrl: null,
  createdAt: '',
  updatedAt: '',
};

describe('the fan-out of announcements, settings and file lists', () => {
  beforeAll(() => Logger.overrideLogger(false)); // skipped events are logged as warnings

  it('sends an active announcement, or its deletion, to every socket of every company (the platform room)', () => {
    const consumer = new AnnouncementsConsumer();
    expect(consumer.emissions(msg('company.announcement.updated.4', { action: 'update', announcement }))).toEqual([
      { rooms: ['platform'], channel: 'company-announcement', payload: { action: 'update', announcement } },
    ]);
    expect(consumer.emissions(msg('company.announcement.deleted.4', { action: 'delete', announcementId: 4 }))).toEqual([
      { rooms: ['platform'], channel: 'company-announcement', payload: { action: 'delete', announcementId: 4 } },
    ]);
    // an inactive one: whole to the super users, a deletion to everyone else
    const draft = { ...announcement, status: false };
    expect(consumer.emissions(msg('company.announcement.updated.4', { action: 'update', announcement: draft }))).toEqual([
      { rooms: ['platform:super'], channel: 'company-announcement', payload: { action: 'update', announcement: draft } },
      {
        rooms: ['platform'],
        except: ['platform:super'],
        channel: 'company-announcement',
        payload: { action: 'delete', announcementId: 4 },
      },
    ]);
    // nothing for what is not one
    expect(consumer.emissions(msg('company.announcement.updated.4', { action: 'update', announcement: { id: 'x' } }))).toEqual([]);
    expect(consumer.emissions(msg('company.announcement.deleted.4', { action: 'delete' }))).toEqual([]);
    expect(consumer.emissions(msg('company.announcement.deleted.4', null))).toEqual([]);
  });

  it('sends a setting change to its company’s sockets only, as auth gave it (a secret already masked)', () => {
    const consumer = new SettingsConsumer();
    expect(consumer.emissions(msg('company.setting.updated.7.asaas', { companyId: 7, key: 'asaas', value: '••••cdef', at: '' }))).toEqual([
      { rooms: ['c:7'], channel: 'company-7-settings', payload: { action: 'update', setting: { key: 'asaas', value: '••••cdef' } } },
    ]);
    // a payload that names another company than its subject, or no value, goes nowhere
    expect(consumer.emissions(msg('company.setting.updated.7.asaas', { companyId: 8, key: 'asaas', value: 'x', at: '' }))).toEqual([]);
    expect(consumer.emissions(msg('company.setting.updated.7.asaas', { companyId: 7, key: 'asaas', at: '' }))).toEqual([]);
  });

  it('sends a file list change to its company’s sockets only', async () => {
    const consumer = new TicketsConsumer({} as TicketPlaces);
    const fileList = { id: 3, name: 'Catálogo', message: 'm', userId: 1, options: [], createdAt: '', updatedAt: '' };
    expect(await consumer.emissions(msg('files.updated.7.3', { companyId: 7, action: 'update', fileList }))).toEqual([
      { rooms: ['c:7'], channel: 'company-7-files', payload: { action: 'update', fileList } },
    ]);
    expect(await consumer.emissions(msg('files.deleted.7.3', { companyId: 7, action: 'delete', fileListId: 3 }))).toEqual([
      { rooms: ['c:7'], channel: 'company-7-files', payload: { action: 'delete', fileListId: 3 } },
    ]);
    expect(await consumer.emissions(msg('files.deleted.7.3', { companyId: 7, action: 'delete', fileListId: 'x' }))).toEqual([]);
    expect(await consumer.emissions(msg('files.updated.7.3', { companyId: 9, action: 'update', fileList }))).toEqual([]);
  });
  it('names the company, plan or help that changed: companies and plans to super users, helps to every socket; nothing for other subjects', () => {
    const lists = new PlatformListsConsumer();
    expect(lists.companies(msg('company.deleted.12', {}))).toEqual([
      { rooms: ['platform:super'], channel: 'platform-company', payload: { action: 'delete', id: 12 } },
    ]);
    expect(lists.plans(msg('plan.updated.3', {}))).toEqual([
      { rooms: ['platform:super'], channel: 'platform-plan', payload: { action: 'update', id: 3 } },
    ]);
    expect(lists.helps(msg('company.help.updated.8', {}))).toEqual([
      { rooms: ['platform'], channel: 'platform-help', payload: { action: 'update', id: 8 } },
    ]);
    for (const bad of ['company.renamed.12', 'company.created.x', 'company.created.0', 'company.setting.updated.12.x'])
      expect(lists.companies(msg(bad, {}))).toEqual([]);
  });
});
