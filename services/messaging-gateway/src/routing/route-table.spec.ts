import { describe, expect, it } from '@jest/globals';
import { apiMetricsRoute, canonicalPath, isApiPath, isApiSend, matchRoute } from './route-table.js';

describe('route table', () => {
  it.each([
    ['POST', '/auth/login', 'auth', true],
    ['GET', '/auth/me', 'auth', false],
    ['GET', '/users/', 'auth', false],
    ['GET', '/tickets/u/abc', 'tickets', false],
    ['GET', '/queue', 'tickets', false],
    ['GET', '/whatsapp/', 'whatsapp-sessions', false],
    ['POST', '/whatsappsession/3', 'whatsapp-sessions', false],
    ['GET', '/platform/sessions', 'whatsapp-sessions', false],
    ['POST', '/platform/sessions/replicas/whatsapp-sessions-1/drain', 'whatsapp-sessions', false],
    ['GET', '/plans/list', 'billing', true],
    ['POST', '/plans/list', 'billing', false],
    ['GET', '/invoices/all', 'billing', false],
    ['POST', '/subscription', 'billing', false],
    ['POST', '/billing/webhooks/sandbox', 'billing', true],
    ['POST', '/billing/webhooks/efi/pix', 'billing', true],
    ['GET', '/billing/webhooks/sandbox', 'billing', false],
    ['POST', '/billing/sandbox/charges/abc/pay', 'billing', false],
    ['GET', '/socket.io/', 'realtime-gateway', true],
    ['GET', '/version', 'auth', true],
  ])('%s %s → %s (public %s)', (method, path, service, isPublic) => {
    expect(matchRoute(method, path)).toMatchObject({ route: { service }, isPublic });
  });

  it('names the plan flag of the plan-gated routes, and none elsewhere', () => {
    expect(matchRoute('GET', '/prompt/3')?.route.plan).toBe('useOpenAi');
    expect(matchRoute('POST', '/queueIntegration/testSession')?.route.plan).toBe('useIntegrations');
    expect(matchRoute('GET', '/queue/3')?.route.plan).toBeUndefined();
    expect(matchRoute('GET', '/schedules')?.route.plan).toBe('useSchedules');
    expect(matchRoute('DELETE', '/campaigns/4')?.route.plan).toBe('useCampaigns');
    expect(matchRoute('GET', '/contact-list-items')?.route.plan).toBe('useCampaigns');
    expect(matchRoute('POST', '/chats/2/read')?.route.plan).toBe('useInternalChat');
    expect(matchRoute('GET', '/tags/kanban')?.route.plan).toBe('useKanban');
    expect(matchRoute('GET', '/ticket/kanban')?.route).toMatchObject({ service: 'tickets', plan: 'useKanban' });
    // the tags themselves are every plan's; only their kanban board is gated
    expect(matchRoute('GET', '/tags')?.route.plan).toBeUndefined();
    expect(matchRoute('GET', '/tags/3')?.route.plan).toBeUndefined();
    expect(matchRoute('GET', '/queue-options')?.route.plan).toBeUndefined();
  });

  it('does not match a longer word that merely starts with a prefix', () => {
    expect(matchRoute('GET', '/queues')).toBeUndefined();
    expect(matchRoute('GET', '/usersx')).toBeUndefined();
    expect(matchRoute('GET', '/nope')).toBeUndefined();
  });
});

describe('canonical paths', () => {
  it('routes and gates a path whatever its case, doubled or trailing slashes', () => {
    expect(canonicalPath('/Tags//KANBAN/')).toBe('/tags/kanban');
    expect(canonicalPath('/')).toBe('/');
    expect(matchRoute('GET', '/tags/KANBAN')?.route.plan).toBe('useKanban');
    expect(matchRoute('GET', '/queueintegration/3')?.route.plan).toBe('useIntegrations');
    expect(matchRoute('GET', '/QUEUES')).toBeUndefined();
  });

  it('knows the public API only by its exact paths, versioned (/api/v1/messages) or by its alias (/api/messages)', () => {
    for (const base of ['/api/messages', '/api/v1/messages']) {
      expect(isApiPath('POST', `${base}/send`)).toBe(true);
      expect(isApiPath('GET', `${base}/42`)).toBe(true);
      expect(isApiSend('POST', `${base}/send`)).toBe(true);
      expect(isApiSend('GET', `${base}/42`)).toBe(false);
      expect(matchRoute('POST', `${base}/send`)?.route).toMatchObject({ service: 'tickets', api: true });
    }
    for (const [method, path] of [
      ['POST', '/api/messages/send/'],
      ['POST', '/api/messages/SEND'],
      ['POST', '/api//messages/send'],
      ['GET', '/api/messages/send'],
      ['POST', '/api/messages/42'],
      ['POST', '/api/v1/messages/send/'],
      ['POST', '/api/V1/messages/send'],
      ['POST', '/api/v1//messages/send'],
      ['POST', '/api/v2/messages/send'],
      ['POST', '/api/v1/messages/42'],
    ]) {
      expect([method, path, isApiPath(method, path), isApiSend(method, path)]).toEqual([method, path, false, false]);
    }
    expect(matchRoute('POST', '/api/v2/messages/send')).toBeUndefined();
  });

  it('routes the instance control (issue 45 §3) to whatsapp-sessions as the public API, by its exact paths only', () => {
    for (const [method, path] of [
      ['GET', '/api/v1/instance'],
      ['GET', '/api/v1/instance/qrcode'],
      ['POST', '/api/v1/instance/pairing-code'],
      ['POST', '/api/v1/instance/restart'],
      ['POST', '/api/v1/instance/logout'],
    ] as const) {
      expect([method, path, isApiPath(method, path), isApiSend(method, path), matchRoute(method, path)?.route]).toEqual([
        method,
        path,
        true,
        false,
        expect.objectContaining({ service: 'whatsapp-sessions', api: true }),
      ]);
      // each its own metrics route, as written
      expect(apiMetricsRoute(method, path)).toBe(path);
    }
    for (const [method, path] of [
      ['POST', '/api/v1/instance'],
      ['DELETE', '/api/v1/instance'],
      ['POST', '/api/v1/instance/qrcode'],
      ['GET', '/api/v1/instance/restart'],
      ['GET', '/api/v1/instance/logout'],
      ['GET', '/api/v1/instance/pairing-code'],
      ['GET', '/api/v1/instance/'],
      ['GET', '/api/v1/INSTANCE'],
      ['POST', '/api/v1//instance/logout'],
      ['POST', '/api/v1/instance/logout/'],
      ['POST', '/api/v1/instance/connect'],
      ['GET', '/api/v1/instance/3'],
    ]) {
      // routed to whatsapp-sessions' public API, so the gateway answers them 404 (not a path of its own)
      expect([method, path, isApiPath(method, path), matchRoute(method, path)?.route.api]).toEqual([method, path, false, true]);
    }
    // the instance control has no unversioned alias (the Whaticket paths never had one)
    expect(matchRoute('GET', '/api/instance')).toBeUndefined();
    expect(matchRoute('POST', '/api/instance/logout')).toBeUndefined();
  });

  it('names the metrics route of a message by :id, one label for all of them', () => {
    expect(apiMetricsRoute('GET', '/api/v1/messages/42')).toBe('/api/v1/messages/:id');
    expect(apiMetricsRoute('GET', '/api/messages/42')).toBe('/api/messages/:id');
    expect(apiMetricsRoute('POST', '/api/v1/messages/send')).toBe('/api/v1/messages/send');
    expect(apiMetricsRoute('POST', '/api/messages/send')).toBe('/api/messages/send');
  });
});
