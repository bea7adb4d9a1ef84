import { describe, expect, it } from '@jest/globals';
import { connectionsNeedAttention } from '../connection-badge';
import { MENU_ITEMS, visibleMenuItems, type MenuKey } from '../menu-items';

const all = new Set<MenuKey>(MENU_ITEMS.map((i) => i.key));
const keys = (items: { key: MenuKey }[]) => items.map((i) => i.key);
const agent = { isAdmin: false, isSuper: false, plan: {} };
const admin = { isAdmin: true, isSuper: false, plan: {} };

describe('side menu (spec 01 §2 "Side menu", §6)', () => {
  it('shows only the screens this build has: tickets, quick replies, to-do list, contacts, tags and help for everyone, schedules and the kanban with the plan, the dashboard, connections, files, queues, users and settings for admins', () => {
    expect(keys(visibleMenuItems(agent))).toEqual(['tickets', 'quickMessages', 'todolist', 'contacts', 'tags', 'helps']);
    expect(keys(visibleMenuItems(admin))).toEqual([
      'dashboard',
      'tickets',
      'quickMessages',
      'todolist',
      'contacts',
      'tags',
      'helps',
      'connections',
      'files',
      'queues',
      'users',
      'financeiro',
      'settings',
    ]);
    const plan = { useSchedules: true };
    expect(keys(visibleMenuItems({ ...agent, plan }))).toEqual([
      'tickets',
      'quickMessages',
      'todolist',
      'contacts',
      'schedules',
      'tags',
      'helps',
    ]);
    expect(keys(visibleMenuItems({ ...admin, plan }))).toEqual([
      'dashboard',
      'tickets',
      'quickMessages',
      'todolist',
      'contacts',
      'schedules',
      'tags',
      'helps',
      'connections',
      'files',
      'queues',
      'users',
      'financeiro',
      'settings',
    ]);
    expect(visibleMenuItems(agent).find((i) => i.key === 'helps')?.to).toBe('/helps');
  });

  it('shows the invoices (Financeiro, /financeiro) to admins only, before the settings (spec 02 §2, §6)', () => {
    expect(visibleMenuItems(admin).find((i) => i.key === 'financeiro')?.to).toBe('/financeiro');
    expect(keys(visibleMenuItems(agent))).not.toContain('financeiro');
    expect(keys(visibleMenuItems({ ...agent, isSupervisor: true }))).not.toContain('financeiro');
  });

  it('shows the file lists to admins only (spec 01 §2 "Side menu": the administration group)', () => {
    expect(visibleMenuItems(admin).find((i) => i.key === 'files')?.to).toBe('/files');
    expect(keys(visibleMenuItems(agent))).not.toContain('files');
    expect(keys(visibleMenuItems({ ...agent, isSupervisor: true }))).not.toContain('files');
  });

  it('shows supervisors the dashboard, not the company’s administration (README "Profiles")', () => {
    expect(keys(visibleMenuItems({ ...agent, isSupervisor: true }))).toEqual([
      'dashboard',
      'tickets',
      'quickMessages',
      'todolist',
      'contacts',
      'tags',
      'helps',
    ]);
  });

  it('shows the external messages API to admins whose plan has useExternalApi (spec 02 §6)', () => {
    const plan = { useExternalApi: true };
    expect(keys(visibleMenuItems({ ...admin, plan }))).toEqual([
      'dashboard',
      'tickets',
      'quickMessages',
      'todolist',
      'contacts',
      'tags',
      'helps',
      'connections',
      'files',
      'queues',
      'users',
      'messagesAPI',
      'webhooks',
      'financeiro',
      'settings',
    ]);
    expect(keys(visibleMenuItems({ ...agent, plan }))).not.toContain('messagesAPI');
    expect(keys(visibleMenuItems(admin))).not.toContain('messagesAPI');
    // the webhooks page goes with the public API: admins only, same plan feature
    expect(keys(visibleMenuItems({ ...agent, plan }))).not.toContain('webhooks');
    expect(keys(visibleMenuItems(admin))).not.toContain('webhooks');
  });

  it('shows the prompts to admins whose plan has useOpenAi and the queue integrations with useIntegrations (spec 02 §6)', () => {
    const plan = { useOpenAi: true, useIntegrations: true };
    expect(keys(visibleMenuItems({ ...admin, plan }))).toEqual([
      'dashboard',
      'tickets',
      'quickMessages',
      'todolist',
      'contacts',
      'tags',
      'helps',
      'prompts',
      'queueIntegration',
      'connections',
      'files',
      'queues',
      'users',
      'financeiro',
      'settings',
    ]);
    expect(keys(visibleMenuItems({ ...admin, plan: { useOpenAi: true } }))).not.toContain('queueIntegration');
    expect(keys(visibleMenuItems({ ...admin, plan: { useIntegrations: true } }))).not.toContain('prompts');
    expect(keys(visibleMenuItems({ ...agent, plan }))).toEqual(['tickets', 'quickMessages', 'todolist', 'contacts', 'tags', 'helps']);
    expect(visibleMenuItems({ ...admin, plan }).find((i) => i.key === 'queueIntegration')?.to).toBe('/queue-integration');
  });

  it('shows the tags to everyone, and the kanban to everyone whose plan has useKanban (spec 02 §6)', () => {
    expect(visibleMenuItems(agent).find((i) => i.key === 'tags')?.to).toBe('/tags');
    expect(keys(visibleMenuItems(agent))).not.toContain('kanban');
    expect(keys(visibleMenuItems(admin))).not.toContain('kanban');
    const plan = { useKanban: true };
    expect(keys(visibleMenuItems({ ...agent, plan }))).toEqual([
      'tickets',
      'quickMessages',
      'kanban',
      'todolist',
      'contacts',
      'tags',
      'helps',
    ]);
    expect(keys(visibleMenuItems({ ...admin, plan }))).toContain('kanban');
    expect(visibleMenuItems({ ...agent, plan }).find((i) => i.key === 'kanban')?.to).toBe('/kanban');
  });

  it('keeps the administration group and the dashboard for admins', () => {
    const shown = keys(visibleMenuItems(agent, all));
    expect(shown).not.toContain('dashboard');
    expect(shown).not.toContain('connections');
    expect(MENU_ITEMS.filter((i) => i.group === 'admin').every((i) => !i.rule(agent))).toBe(true);
    expect(keys(visibleMenuItems(admin, all))).toContain('dashboard');
  });

  it('gates items by plan flags and the super flag', () => {
    expect(keys(visibleMenuItems(admin, all))).not.toEqual(expect.arrayContaining(['kanban']));
    const full = {
      isAdmin: true,
      isSuper: true,
      plan: { useKanban: true, useOpenAi: true, useIntegrations: true, useSchedules: true, useInternalChat: true, useExternalApi: true },
      campaigns: true,
    };
    expect(keys(visibleMenuItems(full, all))).toEqual(MENU_ITEMS.map((i) => i.key));
    expect(keys(visibleMenuItems(admin, all))).not.toContain('announcements');
  });
});

describe('connections badge', () => {
  it.each(['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING'] as const)('shows for %s', (status) => {
    expect(connectionsNeedAttention([{ status: 'CONNECTED' }, { status }])).toBe(true);
  });

  it('does not show when every connection is connected, or before the list is there', () => {
    expect(connectionsNeedAttention([{ status: 'CONNECTED' }])).toBe(false);
    expect(connectionsNeedAttention(undefined)).toBe(false);
  });
});

describe('the campaign area in the menu (the cshow rule)', () => {
  it('shows campaigns, contact lists and campaign settings to admins when the rule holds, never to agents', () => {
    const withCampaigns = { ...admin, campaigns: true };
    expect(keys(visibleMenuItems(withCampaigns)).filter((k) => k.startsWith('campaign') || k === 'contactLists')).toEqual([
      'campaigns',
      'contactLists',
      'campaignsConfig',
    ]);
    expect(visibleMenuItems(withCampaigns).find((i) => i.key === 'contactLists')?.to).toBe('/contact-lists');
    expect(keys(visibleMenuItems(admin))).not.toContain('campaigns');
    expect(keys(visibleMenuItems({ ...agent, campaigns: true }))).not.toContain('campaigns');
  });
});
