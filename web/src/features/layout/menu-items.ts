import type { PlanFlags, UserDto } from '@wa/contracts';
import { campaignsShown } from '../campaigns/campaign-rules';

export type MenuKey =
  | 'dashboard'
  | 'tickets'
  | 'quickMessages'
  | 'kanban'
  | 'todolist'
  | 'contacts'
  | 'schedules'
  | 'tags'
  | 'chats'
  | 'helps'
  | 'campaigns'
  | 'contactLists'
  | 'campaignsConfig'
  | 'announcements'
  | 'prompts'
  | 'queueIntegration'
  | 'connections'
  | 'files'
  | 'queues'
  | 'users'
  | 'messagesAPI'
  | 'webhooks'
  | 'financeiro'
  | 'settings';

export interface MenuItemDef {
  key: MenuKey;
  to: string;
  group: 'main' | 'admin';
  /** who sees it (spec 01 §2 "Side menu", §6) */
  rule: (who: MenuViewer) => boolean;
}

export interface MenuViewer {
  isAdmin: boolean;
  /** a supervisor (README "Profiles": every conversation and the dashboard, not the company's administration) */
  isSupervisor?: boolean;
  isSuper: boolean;
  plan: Partial<PlanFlags>;
  /** the `cshow` rule: the plan has campaigns and the company's campaignsEnabled setting is on */
  campaigns?: boolean;
}

const always = () => true;
const adminOnly = (v: MenuViewer) => v.isAdmin;

/** Every item of the spec's side menu, in its order. */
export const MENU_ITEMS: MenuItemDef[] = [
  { key: 'dashboard', to: '/', group: 'main', rule: (v) => v.isAdmin || !!v.isSupervisor },
  { key: 'tickets', to: '/tickets', group: 'main', rule: always },
  { key: 'quickMessages', to: '/quick-messages', group: 'main', rule: always },
  { key: 'kanban', to: '/kanban', group: 'main', rule: (v) => !!v.plan.useKanban },
  { key: 'todolist', to: '/todolist', group: 'main', rule: always },
  { key: 'contacts', to: '/contacts', group: 'main', rule: always },
  { key: 'schedules', to: '/schedules', group: 'main', rule: (v) => !!v.plan.useSchedules },
  { key: 'tags', to: '/tags', group: 'main', rule: always },
  { key: 'chats', to: '/chats', group: 'main', rule: (v) => !!v.plan.useInternalChat },
  { key: 'helps', to: '/helps', group: 'main', rule: always },
  { key: 'campaigns', to: '/campaigns', group: 'admin', rule: (v) => v.isAdmin && !!v.campaigns },
  { key: 'contactLists', to: '/contact-lists', group: 'admin', rule: (v) => v.isAdmin && !!v.campaigns },
  { key: 'campaignsConfig', to: '/campaigns-config', group: 'admin', rule: (v) => v.isAdmin && !!v.campaigns },
  { key: 'announcements', to: '/announcements', group: 'admin', rule: (v) => v.isAdmin && v.isSuper },
  { key: 'prompts', to: '/prompts', group: 'admin', rule: (v) => v.isAdmin && !!v.plan.useOpenAi },
  { key: 'queueIntegration', to: '/queue-integration', group: 'admin', rule: (v) => v.isAdmin && !!v.plan.useIntegrations },
  { key: 'connections', to: '/connections', group: 'admin', rule: adminOnly },
  { key: 'files', to: '/files', group: 'admin', rule: adminOnly },
  { key: 'queues', to: '/queues', group: 'admin', rule: adminOnly },
  { key: 'users', to: '/users', group: 'admin', rule: adminOnly },
  { key: 'messagesAPI', to: '/messages-api', group: 'admin', rule: (v) => v.isAdmin && !!v.plan.useExternalApi },
  // the company's outbound webhook (issue 45 §3): beside the public API, under the same plan feature
  { key: 'webhooks', to: '/webhooks', group: 'admin', rule: (v) => v.isAdmin && !!v.plan.useExternalApi },
  { key: 'financeiro', to: '/financeiro', group: 'admin', rule: adminOnly },
  { key: 'settings', to: '/settings', group: 'admin', rule: adminOnly },
];

/** The screens this build has: the other items stay hidden rather than lead nowhere. */
export const BUILT_SCREENS: ReadonlySet<MenuKey> = new Set<MenuKey>([
  'dashboard',
  'tickets',
  'quickMessages',
  'kanban',
  'todolist',
  'contacts',
  'schedules',
  'tags',
  'chats',
  'helps',
  'campaigns',
  'contactLists',
  'campaignsConfig',
  'announcements',
  'prompts',
  'queueIntegration',
  'connections',
  'files',
  'queues',
  'users',
  'messagesAPI',
  'webhooks',
  'financeiro',
  'settings',
]);

export function viewerOf(user: UserDto | null): MenuViewer {
  return {
    isAdmin: user?.profile === 'admin' || user?.super === true,
    isSupervisor: user?.profile === 'supervisor',
    isSuper: user?.super === true,
    plan: user?.company?.plan ?? {},
    campaigns: campaignsShown(user),
  };
}

export function visibleMenuItems(viewer: MenuViewer, built: ReadonlySet<MenuKey> = BUILT_SCREENS): MenuItemDef[] {
  return MENU_ITEMS.filter((item) => built.has(item.key) && item.rule(viewer));
}
