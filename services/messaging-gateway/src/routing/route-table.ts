import type { PlanFlags } from '@wa/contracts';

/**
 * The one route table: every path of the specs and the service that owns it.
 * Order matters only where a prefix is shared; the first match wins.
 */
export type ServiceName = 'auth' | 'tickets' | 'whatsapp-sessions' | 'campaigns' | 'billing' | 'realtime-gateway';

export interface Route {
  /** first path segment (or a longer prefix) */
  prefix: string;
  service: ServiceName;
  /** methods that need no token, when only some do */
  publicMethods?: string[];
  /** the public API (messages, instance): a connection's API token instead of a user's (ApiGate) */
  api?: boolean;
  /** the plan flag the caller's company needs (else 403 with the spec's text): the one plan gate, here */
  plan?: keyof PlanFlags;
}

export const ROUTES: Route[] = [
  // auth: session, users, companies, settings, helps, announcements
  { prefix: '/auth/login', service: 'auth', publicMethods: ['POST'] },
  { prefix: '/auth/refresh_token', service: 'auth', publicMethods: ['POST'] },
  { prefix: '/auth/logout', service: 'auth', publicMethods: ['DELETE'] },
  { prefix: '/auth/signup', service: 'auth', publicMethods: ['POST'] },
  { prefix: '/auth', service: 'auth' },
  { prefix: '/version', service: 'auth', publicMethods: ['GET'] },
  { prefix: '/forgetpsw', service: 'auth', publicMethods: ['POST', 'GET'] },
  // password reset (spec 02 §7): both steps are called signed out
  { prefix: '/forgetpassword', service: 'auth', publicMethods: ['POST'] },
  { prefix: '/resetpasswords', service: 'auth', publicMethods: ['POST'] },
  { prefix: '/settings', service: 'auth' },
  { prefix: '/users', service: 'auth' },
  { prefix: '/companies', service: 'auth' },
  { prefix: '/helps', service: 'auth' },
  { prefix: '/announcements', service: 'auth' },
  // tickets: conversations and everything around them
  { prefix: '/tickets', service: 'tickets' },
  { prefix: '/ticket-notes', service: 'tickets' },
  { prefix: '/ticket-tags', service: 'tickets' },
  { prefix: '/messages', service: 'tickets' },
  { prefix: '/media', service: 'tickets' },
  { prefix: '/contacts', service: 'tickets' },
  { prefix: '/tags/kanban', service: 'tickets', plan: 'useKanban' },
  { prefix: '/tags', service: 'tickets' },
  { prefix: '/ticket/kanban', service: 'tickets', plan: 'useKanban' },
  { prefix: '/quick-messages', service: 'tickets' },
  { prefix: '/schedules', service: 'tickets', plan: 'useSchedules' },
  { prefix: '/queue-options', service: 'tickets' },
  { prefix: '/queueIntegration', service: 'tickets', plan: 'useIntegrations' },
  { prefix: '/queue', service: 'tickets' },
  { prefix: '/chats', service: 'tickets', plan: 'useInternalChat' },
  { prefix: '/files', service: 'tickets' },
  { prefix: '/prompt', service: 'tickets', plan: 'useOpenAi' },
  { prefix: '/dashboard', service: 'tickets' },
  // the company's outbound webhook and its delivery log
  { prefix: '/webhook-settings', service: 'tickets' },
  { prefix: '/webhook-deliveries', service: 'tickets' },
  // the public messages API: the gateway admits a connection's API token, tickets answers. `/api/v1/messages` is
  // its versioned surface; `/api/messages` (Whaticket's paths) stays as its alias
  { prefix: '/api/v1/messages', service: 'tickets', api: true },
  { prefix: '/api/messages', service: 'tickets', api: true },
  // the public API's instance control (issue 45 §3): the token's connection, answered by whatsapp-sessions (versioned only)
  { prefix: '/api/v1/instance', service: 'whatsapp-sessions', api: true },
  // whatsapp-sessions: connections and their sessions
  { prefix: '/whatsappsession', service: 'whatsapp-sessions' },
  { prefix: '/whatsapp', service: 'whatsapp-sessions' },
  // the platform operators' view of the sessions and their replicas (super users; whatsapp-sessions checks)
  { prefix: '/platform/sessions', service: 'whatsapp-sessions' },
  // campaigns
  { prefix: '/campaigns', service: 'campaigns', plan: 'useCampaigns' },
  { prefix: '/campaign-settings', service: 'campaigns', plan: 'useCampaigns' },
  { prefix: '/contact-lists', service: 'campaigns', plan: 'useCampaigns' },
  { prefix: '/contact-list-items', service: 'campaigns', plan: 'useCampaigns' },
  // billing
  { prefix: '/plans/list', service: 'billing', publicMethods: ['GET'] },
  { prefix: '/plans', service: 'billing' },
  { prefix: '/invoices', service: 'billing' },
  { prefix: '/subscription', service: 'billing' },
  // the Pix providers' webhooks (billing checks the signature and reads every charge back from the provider)
  { prefix: '/billing/webhooks', service: 'billing', publicMethods: ['POST'] },
  // the sandbox payer (super users)
  { prefix: '/billing/sandbox', service: 'billing' },
  // live socket (the token is checked in the handshake by realtime-gateway)
  { prefix: '/socket.io', service: 'realtime-gateway', publicMethods: ['GET', 'POST'] },
];

export interface RouteMatch {
  route: Route;
  isPublic: boolean;
}

/**
 * The one form of a path the gateway routes and gates on: slashes collapsed, no trailing slash, lower case.
 * The services (Express) route `/tags/KANBAN`, `/tags/kanban/` and `/tags/kanban` alike, so the gate must
 * see them alike too, or a variant walks around it.
 */
export function canonicalPath(path: string): string {
  const collapsed = path.replace(/\/{2,}/g, '/');
  const trimmed = collapsed.length > 1 && collapsed.endsWith('/') ? collapsed.slice(0, -1) : collapsed;
  return trimmed.toLowerCase();
}

/** The public API's send, versioned (`/api/v1/messages/send`) or by its Whaticket alias (`/api/messages/send`). */
const API_SEND = /^\/api(?:\/v1)?\/messages\/send$/;

/**
 * The public messages API's paths, exactly as written (its pace and queue cap are keyed on them), under
 * `/api/v1/messages` and its alias `/api/messages`: any other path under them, a variant in case, slashes or a
 * trailing slash included, answers 404.
 */
const API_PATHS: Array<{ methods: string[]; path: RegExp }> = [
  { methods: ['POST'], path: API_SEND },
  { methods: ['GET', 'HEAD'], path: /^\/api(?:\/v1)?\/messages\/\d{1,18}$/ },
  // the instance (the token's connection): its state and QR code, a pairing code, a restart and a logout
  { methods: ['GET', 'HEAD'], path: /^\/api\/v1\/instance(?:\/qrcode)?$/ },
  { methods: ['POST'], path: /^\/api\/v1\/instance\/(?:pairing-code|restart|logout)$/ },
];

/**
 * The public API's route as the request metrics name it: its exact path, a message's id as `:id` (one label per
 * route, not per message).
 */
export function apiMetricsRoute(method: string, rawPath: string): string {
  if (isApiSend(method, rawPath)) return rawPath;
  return rawPath.replace(/^(\/api(?:\/v1)?\/messages)\/\d{1,18}$/, '$1/:id');
}

/** Is this method and raw path one of the public API's own (see API_PATHS)? */
export function isApiPath(method: string, rawPath: string): boolean {
  const m = method.toUpperCase();
  return API_PATHS.some((p) => p.methods.includes(m) && p.path.test(rawPath));
}

/** Is this the public API's send (paced per connection), by either of its paths? */
export function isApiSend(method: string, rawPath: string): boolean {
  return method.toUpperCase() === 'POST' && API_SEND.test(rawPath);
}

/** Each route's prefix in the canonical form, made once (matchRoute runs on every request). */
const canonicalPrefixes = new WeakMap<Route, string>();
function canonicalPrefix(route: Route): string {
  let prefix = canonicalPrefixes.get(route);
  if (prefix === undefined) canonicalPrefixes.set(route, (prefix = route.prefix.toLowerCase()));
  return prefix;
}

/**
 * A path matches a prefix when it is the prefix or continues it with `/` (so `/queue` ≠ `/queues`),
 * compared on the canonical form (case, doubled and trailing slashes do not matter).
 */
export function matchRoute(method: string, path: string, routes: Route[] = ROUTES): RouteMatch | undefined {
  const canonical = canonicalPath(path);
  for (const route of routes) {
    const prefix = canonicalPrefix(route);
    if (canonical === prefix || canonical.startsWith(`${prefix}/`)) {
      return { route, isPublic: route.publicMethods?.includes(method.toUpperCase()) ?? false };
    }
  }
  return undefined;
}
