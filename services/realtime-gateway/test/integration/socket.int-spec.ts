import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { signAccessToken } from '@wa/auth';
import { PlanSubjects, SocketChannels, Subjects, userOnlineKey, type SessionReplacedEvent, type UserChangedEvent } from '@wa/contracts';
import { REDIS } from '@wa/server-kit';
import { waitFor } from '@wa/testing';
import type { Redis } from 'ioredis';
import { Rooms } from '../../src/realtime/rooms.js';
import {
  ask,
  connect,
  deployment,
  dropDurable,
  newCompanyId,
  newId,
  newUser,
  publish,
  putUser,
  roomSize,
  session,
  settle,
  startReplica,
  ticketDto,
  TicketsStub,
  whatsappDto,
  type Client,
  type Replica,
} from './harness.js';

describe('realtime-gateway: live socket', () => {
  let stub: TicketsStub;
  let settings: ReturnType<typeof deployment>;
  let gw: Replica;
  const clients: Client[] = [];
  const open = async (token: string | undefined, how: 'auth' | 'query' = 'auth') => {
    const c = await connect(gw.baseUrl, token, how);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    stub = await new TicketsStub().start();
    settings = deployment(stub.url);
    gw = await startReplica(settings);
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    try {
      await dropDurable(gw.bus, settings.REALTIME_DURABLE);
    } finally {
      await gw.close();
      await stub.stop();
    }
  });

  describe('handshake', () => {
    it('refuses a missing, malformed, foreign, expired or revoked token, saying why', async () => {
      const companyId = newCompanyId();
      const user = await newUser(gw, companyId, { profile: 'admin' });
      const refusal = (token: string | undefined) =>
        open(token).then(
          () => 'connected',
          (err: Error & { data?: { error: string; reason: string } }) => `${err.message}|${err.data?.error}`,
        );
      expect(await refusal(undefined)).toBe('token missing|ERR_SESSION_EXPIRED');
      expect(await refusal('not-a-token')).toBe('token invalid|ERR_SESSION_EXPIRED');
      const foreign = signAccessToken(
        { id: user.id, companyId, profile: 'admin', super: false, sid: randomUUID() },
        'another-secret-of-at-least-32-chars!!',
      );
      expect(await refusal(foreign)).toBe('token invalid|ERR_SESSION_EXPIRED');
      expect(await refusal(session(companyId, user.id, 'admin', false, -10).token)).toBe('token expired|ERR_SESSION_EXPIRED');
      const revoked = session(companyId, user.id, 'admin');
      await gw.revocation.revokeSessions([revoked.sid]);
      expect(await refusal(revoked.token)).toBe('token revoked|ERR_SESSION_EXPIRED');
    });

    it("counts this replica's connected sockets in /metrics (realtime_connected_sockets), refused ones not", async () => {
      const sockets = async () => {
        const text = String((await fetch(`${gw.baseUrl}/metrics`).then((r) => r.text())) ?? '');
        const line = /^realtime_connected_sockets(?:\{[^}]*\})? (\d+)/m.exec(text);
        return line ? Number(line[1]) : NaN;
      };
      const before = await sockets();
      expect(before).toBeGreaterThanOrEqual(0);
      const companyId = newCompanyId();
      const user = await newUser(gw, companyId, { profile: 'admin' });
      const a = await open(session(companyId, user.id, 'admin').token);
      const b = await open(session(companyId, user.id, 'admin').token);
      await open('not-a-token').catch(() => undefined);
      expect(await sockets()).toBe(before + 2);
      a.close();
      b.close();
      await waitFor(async () => (await sockets()) === before);
    });

    it('lets a valid token in, from auth.token or query.token, and joins only rooms of its own company', async () => {
      const companyId = newCompanyId();
      const admin = await newUser(gw, companyId, { profile: 'admin' });
      const agent = await newUser(gw, companyId, { queueIds: [11, 12] });
      const a = await open(admin.token);
      const b = await open(agent.token, 'query');
      expect(a.socket.connected && b.socket.connected).toBe(true);
      const rooms = async (c: Client) => {
        const [s] = await gw.io.in(Rooms.session(companyId, c === a ? admin.sid : agent.sid)).fetchSockets();
        return [...s!.rooms].filter((r) => r !== s!.id).sort();
      };
      expect(await rooms(a)).toEqual(
        // besides its company's, only the platform's room (the super users' announcements)
        [
          `c:${companyId}`,
          `c:${companyId}:admins`,
          `c:${companyId}:all`,
          `c:${companyId}:sid:${admin.sid}`,
          `c:${companyId}:user:${admin.id}`,
          Rooms.platform(),
        ].sort(),
      );
      expect(await rooms(b)).toEqual(
        [
          `c:${companyId}`,
          `c:${companyId}:queue:11`,
          `c:${companyId}:queue:12`,
          `c:${companyId}:sid:${agent.sid}`,
          `c:${companyId}:user:${agent.id}`,
          Rooms.platform(),
        ].sort(),
      );
    });

    it('uses the token profile without queues when the user is not in the directory', async () => {
      const companyId = newCompanyId();
      const ghost = await newUser(gw, companyId, { inDirectory: false, profile: 'user' });
      await open(ghost.token);
      const [s] = await gw.io.in(Rooms.user(companyId, ghost.id)).fetchSockets();
      expect([...s!.rooms].filter((r) => r.includes(':queue:') || r.endsWith(':all'))).toEqual([]);
    });
  });

  describe('fan-out', () => {
    it('keeps tenants apart: company B receives nothing of company A, whose admin receives all', async () => {
      const companyA = newCompanyId();
      const companyB = newCompanyId();
      const adminA = await open((await newUser(gw, companyA, { profile: 'admin' })).token);
      const adminB = await open((await newUser(gw, companyB, { profile: 'admin' })).token);
      const superB = await open((await newUser(gw, companyB, { profile: 'admin', super: true })).token);
      const ticket = ticketDto(companyA, newId(), 5);
      // a new message is its ticket's update too: tickets publishes no ticket.updated beside it
      await publish.messageCreated(gw.bus, ticket);
      await publish.ticketUnread(gw.bus, ticket);
      await publish.contactUpdated(gw.bus, companyA, {
        ...ticket.contact,
        companyId: companyA,
        email: '',
        isGroup: false,
        extraInfo: [],
        updatedAt: ticket.updatedAt,
      });
      await publish.connectionSession(gw.bus, whatsappDto(companyA, newId()));
      await settle(
        () =>
          adminA.events(SocketChannels.ticket(companyA)).length === 2 &&
          adminA.events(SocketChannels.appMessage(companyA)).length === 1 &&
          adminA.events(SocketChannels.contact(companyA)).length === 1 &&
          adminA.events(SocketChannels.whatsappSession(companyA)).length === 1,
      );
      expect(adminA.events(SocketChannels.ticket(companyA))).toEqual([
        { action: 'update', ticket },
        { action: 'updateUnread', ticketId: ticket.id },
      ]);
      const [created] = adminA.events(SocketChannels.appMessage(companyA));
      expect(created).toMatchObject({
        action: 'create',
        ticket: { id: ticket.id },
        contact: ticket.contact,
        message: { ticketId: ticket.id },
      });
      expect(adminB.received.size).toBe(0);
      expect(superB.received.size).toBe(0);
    });

    it("fans out a message.batch as its messages one by one, in order, each only to its ticket's rooms", async () => {
      const companyId = newCompanyId();
      const [q1, q3] = [newId(), newId()];
      const agent = await open((await newUser(gw, companyId, { queueIds: [q1] })).token);
      const admin = await open((await newUser(gw, companyId, { profile: 'admin' })).token);
      const channel = SocketChannels.appMessage(companyId);
      const inQ1 = ticketDto(companyId, newId(), q1);
      const inQ3 = ticketDto(companyId, newId(), q3);
      await publish.messageBatch(gw.bus, [inQ1, inQ3, inQ1, inQ3, inQ1]);
      await settle(() => admin.events(channel).length === 5 && agent.events(channel).length === 3);
      const shown = (c: Client) => c.events(channel).map((e) => [e.action, e.ticket?.id]);
      expect(shown(admin)).toEqual([inQ1, inQ3, inQ1, inQ3, inQ1].map((t) => ['create', t.id]));
      expect(shown(agent)).toEqual([inQ1, inQ1, inQ1].map((t) => ['create', t.id]));
      const ids = admin.events(channel).map((e) => e.message?.id as number);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      // each ticket new here is told once, to its rooms
      await settle(() => admin.events(SocketChannels.ticket(companyId)).length === 2);
      expect(agent.events(SocketChannels.ticket(companyId)).map((e) => e.ticket?.id)).toEqual([inQ1.id]);
    });

    it('gives an agent the tickets of their queues and their own, none of other queues, and follows a change of queues without reconnecting', async () => {
      const companyId = newCompanyId();
      const [q1, q2, q3] = [newId(), newId(), newId()];
      const agentUser = await newUser(gw, companyId, { queueIds: [q1, q2] });
      const agent = await open(agentUser.token);
      const admin = await open((await newUser(gw, companyId, { profile: 'admin' })).token);
      const channel = SocketChannels.ticket(companyId);
      const inQ1 = ticketDto(companyId, newId(), q1);
      const inQ3 = ticketDto(companyId, newId(), q3);
      const ownedInQ3 = ticketDto(companyId, newId(), q3, agentUser.id, 'open');
      const noQueue = ticketDto(companyId, newId(), null);
      for (const t of [inQ1, inQ3, ownedInQ3, noQueue]) await publish.messageCreated(gw.bus, t);
      await settle(() => admin.events(channel).length === 4 && admin.events(SocketChannels.appMessage(companyId)).length === 4);
      const ids = (c: Client, ch: string) =>
        c
          .events(ch)
          .map((e) => e.ticket?.id ?? e.ticketId)
          .sort();
      expect(ids(agent, channel)).toEqual([inQ1.id, ownedInQ3.id].sort());
      expect(ids(agent, SocketChannels.appMessage(companyId))).toEqual([inQ1.id, ownedInQ3.id].sort());

      // an admin moves the agent from q1, q2 to q3: the same socket follows the new queues
      await putUser(gw, { id: agentUser.id, companyId, profile: 'user', queueIds: [q3] });
      await roomSize(gw, Rooms.queue(companyId, q3), 1);
      await roomSize(gw, Rooms.queue(companyId, q1), 0);
      agent.received.clear();
      admin.received.clear();
      const laterInQ1 = ticketDto(companyId, newId(), q1);
      const laterInQ3 = ticketDto(companyId, newId(), q3);
      await publish.ticketUpdated(gw.bus, laterInQ1);
      await publish.ticketUpdated(gw.bus, laterInQ3);
      await settle(() => admin.events(channel).length === 2 && agent.events(channel).length >= 1);
      expect(agent.events(channel)).toEqual([{ action: 'update', ticket: laterInQ3 }]);
      expect(agent.socket.connected).toBe(true);
    });

    it('tells the agents of the queue a ticket left to drop it, and the new queue to show it', async () => {
      const companyId = newCompanyId();
      const [q1, q2] = [newId(), newId()];
      const inQ1 = await open((await newUser(gw, companyId, { queueIds: [q1] })).token);
      const inQ2 = await open((await newUser(gw, companyId, { queueIds: [q2] })).token);
      const inBoth = await open((await newUser(gw, companyId, { queueIds: [q1, q2] })).token);
      const channel = SocketChannels.ticket(companyId);
      const ticket = ticketDto(companyId, newId(), q1);
      await publish.ticketUpdated(gw.bus, ticket);
      await settle(() => inQ1.events(channel).length === 1 && inBoth.events(channel).length === 1, 100);
      const moved = { ...ticket, queueId: q2, queue: { id: q2, name: 'Two', color: '#000' } };
      await publish.ticketUpdated(gw.bus, moved);
      await settle(() => inQ1.events(channel).length === 2 && inQ2.events(channel).length === 1 && inBoth.events(channel).length === 2);
      expect(inQ1.events(channel)[1]).toEqual({ action: 'delete', ticketId: ticket.id });
      expect(inQ2.events(channel)).toEqual([{ action: 'update', ticket: moved }]);
      expect(inBoth.events(channel)[1]).toEqual({ action: 'update', ticket: moved });
      await publish.ticketDeleted(gw.bus, moved);
      await settle(() => inQ2.events(channel).length === 2 && inBoth.events(channel).length === 3);
      expect(inQ2.events(channel)[1]).toEqual({ action: 'delete', ticketId: ticket.id });
      expect(inQ1.events(channel)).toHaveLength(2);
    });

    it('sends connection records and session updates to every socket of the company, and only there; the token and QR code to admins only', async () => {
      const companyId = newCompanyId();
      const admin = await open((await newUser(gw, companyId, { profile: 'admin' })).token);
      const agent = await open((await newUser(gw, companyId, { queueIds: [] })).token);
      const other = await open((await newUser(gw, newCompanyId(), { profile: 'admin' })).token);
      const connection = { ...whatsappDto(companyId, newId(), 'qrcode'), token: 'api-token-of-the-company' };
      await publish.connectionSession(gw.bus, connection);
      await publish.connectionUpdated(gw.bus, { ...connection, name: 'Renamed' });
      await publish.connectionDeleted(gw.bus, companyId, connection.id);
      const session = SocketChannels.whatsappSession(companyId);
      const whatsapp = SocketChannels.whatsapp(companyId);
      await settle(() => [admin, agent].every((c) => c.events(session).length === 1 && c.events(whatsapp).length === 2));
      expect(admin.events(session)).toEqual([{ action: 'update', session: connection }]);
      expect(admin.events(whatsapp)).toEqual([
        { action: 'update', whatsapp: { ...connection, name: 'Renamed' } },
        { action: 'delete', whatsappId: connection.id },
      ]);
      // an agent sees the same changes, never the secrets (with the QR code they could pair the number to their phone)
      expect(agent.events(session)).toEqual([{ action: 'update', session: { ...connection, token: null, qrcode: '' } }]);
      expect(agent.events(whatsapp)).toEqual([
        { action: 'update', whatsapp: { ...connection, name: 'Renamed', token: null, qrcode: '' } },
        { action: 'delete', whatsappId: connection.id },
      ]);
      expect(JSON.stringify([...agent.received.values()])).not.toMatch(/QR-DATA|api-token-of-the-company/);
      expect(other.received.size).toBe(0);
    });

    it('tells the company’s sockets why WhatsApp ended a session (a ban, a logout, another client took it)', async () => {
      const companyId = newCompanyId();
      const admin = await open((await newUser(gw, companyId, { profile: 'admin' })).token);
      const connection = whatsappDto(companyId, newId(), 'DISCONNECTED');
      await publish.connectionSession(gw.bus, connection, 'banned');
      await publish.connectionSession(gw.bus, { ...connection, status: 'CONNECTED' });
      const session = SocketChannels.whatsappSession(companyId);
      await settle(() => admin.events(session).length === 2);
      expect(admin.events(session)).toEqual([
        { action: 'update', session: connection, reason: 'banned' },
        { action: 'update', session: { ...connection, status: 'CONNECTED' } },
      ]);
    });

    it('keeps the QR code and the API token from supervisors (as HTTP does): admins and super users alone get them', async () => {
      const companyId = newCompanyId();
      const admin = await open((await newUser(gw, companyId, { profile: 'admin' })).token);
      const superUser = await open((await newUser(gw, companyId, { profile: 'admin', super: true })).token);
      const supervisor = await open((await newUser(gw, companyId, { profile: 'supervisor' })).token);
      const connection = { ...whatsappDto(companyId, newId(), 'qrcode'), token: 'api-token-of-the-company' };
      await publish.connectionSession(gw.bus, connection);
      await publish.connectionUpdated(gw.bus, { ...connection, name: 'Renamed' });
      const session = SocketChannels.whatsappSession(companyId);
      const whatsapp = SocketChannels.whatsapp(companyId);
      await settle(() => [admin, superUser, supervisor].every((c) => c.events(session).length === 1 && c.events(whatsapp).length === 1));
      for (const c of [admin, superUser]) {
        expect(c.events(session)).toEqual([{ action: 'update', session: connection }]);
        expect(c.events(whatsapp)).toEqual([{ action: 'update', whatsapp: { ...connection, name: 'Renamed' } }]);
      }
      // the supervisor sees the connection change, never what pairs the number or sends as it
      expect(supervisor.events(session)).toEqual([{ action: 'update', session: { ...connection, token: null, qrcode: '' } }]);
      expect(supervisor.events(whatsapp)).toEqual([
        { action: 'update', whatsapp: { ...connection, name: 'Renamed', token: null, qrcode: '' } },
      ]);
      expect(JSON.stringify([...supervisor.received.values()])).not.toMatch(/QR-DATA|api-token-of-the-company/);
    });

    it('sends an inactive announcement whole to super users only; the others hear it is gone; an active one reaches everyone', async () => {
      const companyA = newCompanyId();
      const superUser = await open((await newUser(gw, companyA, { profile: 'admin', super: true })).token);
      const admin = await open((await newUser(gw, companyA, { profile: 'admin' })).token);
      const agent = await open((await newUser(gw, newCompanyId())).token);
      const channel = SocketChannels.announcement();
      const id = newId();
      const announcement = (status: boolean, title: string) => ({
        id,
        title,
        text: 'texto',
        priority: 1 as const,
        status,
        mediaPath: null,
        mediaName: null,
        mediaUrl: null,
        createdAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
      });
      const mine = (c: Client) => c.events(channel).filter((e) => (e.announcement?.id ?? e.announcementId) === id);
      const draft = announcement(false, 'Rascunho: reajuste de preços');
      await gw.bus.publish(Subjects.announcementUpdated(id), { action: 'update', announcement: draft }, { msgId: randomUUID() });
      await settle(() => [superUser, admin, agent].every((c) => mine(c).length === 1));
      expect(mine(superUser)).toEqual([{ action: 'update', announcement: draft }]);
      for (const c of [admin, agent]) expect(mine(c)).toEqual([{ action: 'delete', announcementId: id }]);
      expect(JSON.stringify([...admin.received.values(), ...agent.received.values()])).not.toContain('Rascunho');
      const live = announcement(true, 'Manutenção sábado');
      await gw.bus.publish(Subjects.announcementUpdated(id), { action: 'update', announcement: live }, { msgId: randomUUID() });
      await settle(() => [superUser, admin, agent].every((c) => mine(c).length === 2));
      for (const c of [superUser, admin, agent]) expect(mine(c)[1]).toEqual({ action: 'update', announcement: live });
    });

    it('tells super users which company or plan changed, and every socket which help, so those lists reload live', async () => {
      const companyA = newCompanyId();
      const superUser = await open((await newUser(gw, companyA, { profile: 'admin', super: true })).token);
      const admin = await open((await newUser(gw, companyA, { profile: 'admin' })).token);
      const changed = newCompanyId();
      const planId = newId();
      const helpId = newId();
      const at = new Date().toISOString();
      await gw.bus.publish(Subjects.companyCreated(changed), { companyId: changed, at }, { msgId: randomUUID() });
      await gw.bus.publish(
        Subjects.companyUpdated(changed),
        { companyId: changed, name: 'Nova', planId: 1, status: true, dueDate: null, at },
        { msgId: randomUUID() },
      );
      await gw.bus.publish(Subjects.companyDeleted(changed), { companyId: changed, at }, { msgId: randomUUID() });
      await gw.bus.publish(PlanSubjects.updated(planId), { planId, at }, { msgId: randomUUID() });
      await gw.bus.publish(PlanSubjects.deleted(planId), { planId, at }, { msgId: randomUUID() });
      await gw.bus.publish(Subjects.helpUpdated(helpId), { helpId, at }, { msgId: randomUUID() });
      // a setting of the company (another company.* subject) is no company change
      await gw.bus.publish(
        Subjects.settingUpdated(changed, 'userRating'),
        { companyId: changed, key: 'userRating', value: 'enabled', at },
        { msgId: randomUUID() },
      );
      const mine = (c: Client, channel: string, id: number) => c.events(channel).filter((e) => e.id === id);
      await settle(
        () =>
          mine(superUser, SocketChannels.companies(), changed).length === 3 &&
          mine(superUser, SocketChannels.plans(), planId).length === 2 &&
          [superUser, admin].every((c) => mine(c, SocketChannels.helps(), helpId).length === 1),
      );
      expect(mine(superUser, SocketChannels.companies(), changed)).toEqual([
        { action: 'create', id: changed },
        { action: 'update', id: changed },
        { action: 'delete', id: changed },
      ]);
      expect(mine(superUser, SocketChannels.plans(), planId)).toEqual([
        { action: 'update', id: planId },
        { action: 'delete', id: planId },
      ]);
      for (const c of [superUser, admin]) expect(mine(c, SocketChannels.helps(), helpId)).toEqual([{ action: 'update', id: helpId }]);
      // the companies and plans of the platform are the super users' pages alone
      expect(admin.events(SocketChannels.companies())).toEqual([]);
      expect(admin.events(SocketChannels.plans())).toEqual([]);
    });

    it('sends sessionReplaced to the sockets of the ended session only, then disconnects them', async () => {
      const companyId = newCompanyId();
      const user = await newUser(gw, companyId, { profile: 'admin' });
      const ended = await open(user.token);
      const fresh = session(companyId, user.id, 'admin');
      const current = await open(fresh.token);
      const disconnected = new Promise<string>((resolve) => ended.socket.once('disconnect', (reason) => resolve(reason)));
      const event: SessionReplacedEvent = {
        companyId,
        userId: user.id,
        sessionId: fresh.sid,
        endedSessionIds: [user.sid],
        at: new Date().toISOString(),
      };
      await gw.bus.publish(Subjects.sessionReplaced(companyId, user.id), event, { msgId: `session-replaced:${fresh.sid}` });
      const channel = SocketChannels.auth(companyId);
      await settle(() => ended.events(channel).length === 1);
      expect(ended.events(channel)).toEqual([{ action: 'sessionReplaced', user: { id: user.id } }]);
      expect(current.events(channel)).toEqual([]);
      expect(await disconnected).toBe('io server disconnect');
      expect(current.socket.connected).toBe(true);
    });

    it("sends auth's user changes on company-<id>-user to the company's sockets only (users page, pickers)", async () => {
      const companyId = newCompanyId();
      const admin = await open((await newUser(gw, companyId, { profile: 'admin' })).token);
      const agent = await open((await newUser(gw, companyId, {})).token);
      const other = await open((await newUser(gw, newCompanyId(), { profile: 'admin' })).token);
      const userId = newId();
      const changed: UserChangedEvent = {
        companyId,
        userId,
        name: 'Nova Agente',
        email: 'nova@empresa.test',
        profile: 'user',
        queueIds: [3],
        allTicket: 'enabled',
        super: false,
        at: new Date().toISOString(),
      };
      await gw.bus.publish(Subjects.userCreated(companyId, userId), changed, { msgId: `user-created:${userId}` });
      await gw.bus.publish(
        Subjects.userUpdated(companyId, userId),
        { ...changed, name: 'Nova Agente Silva' },
        { msgId: `user-updated:${userId}:1` },
      );
      await gw.bus.publish(
        Subjects.userDeleted(companyId, userId),
        { companyId, userId, at: new Date().toISOString() },
        { msgId: `user-deleted:${userId}` },
      );
      const channel = SocketChannels.user(companyId);
      await settle(() => admin.events(channel).length === 3 && agent.events(channel).length === 3);
      const user = {
        id: userId,
        name: 'Nova Agente',
        email: 'nova@empresa.test',
        profile: 'user',
        queueIds: [3],
        allTicket: 'enabled',
        super: false,
        companyId,
      };
      expect(admin.events(channel)).toEqual([
        { action: 'create', user },
        { action: 'update', user: { ...user, name: 'Nova Agente Silva' } },
        { action: 'delete', userId },
      ]);
      expect(agent.events(channel)).toEqual(admin.events(channel));
      expect(other.received.size).toBe(0);
    });
  });

  describe('client events', () => {
    it('joinChatBox: accepts a ticket of the agent’s queue, refuses one of another queue or company (admins too)', async () => {
      const companyId = newCompanyId();
      const [q1, q3] = [newId(), newId()];
      const agentUser = await newUser(gw, companyId, { queueIds: [q1] });
      const agent = await open(agentUser.token);
      const admin = await open((await newUser(gw, companyId, { profile: 'admin' })).token);
      const mine = ticketDto(companyId, newId(), q1);
      const other = ticketDto(companyId, newId(), q3);
      const foreign = ticketDto(newCompanyId(), newId(), q1);
      for (const t of [mine, other, foreign]) await publish.ticketUpdated(gw.bus, t);
      await settle(() => admin.events(SocketChannels.ticket(companyId)).length === 2, 100);
      stub.answers.set(other.id, { status: 403, body: { error: 'ERR_NO_PERMISSION' } });

      // known from the events: the agent's queue → yes, without asking tickets
      expect(await ask(agent, 'joinChatBox', mine.id)).toEqual({ ok: true });
      expect(stub.calls.filter((c) => c.ticketId === mine.id)).toEqual([]);
      await roomSize(gw, Rooms.ticket(companyId, mine.id), 1);
      // another queue: tickets (the authority) is asked with the agent's token and says no
      expect(await ask(agent, 'joinChatBox', { ticketId: other.id })).toMatchObject({
        ok: false,
        event: 'joinChatBox',
        error: 'ERR_NO_PERMISSION',
      });
      expect(stub.calls.filter((c) => c.ticketId === other.id)).toEqual([
        { ticketId: other.id, authorization: `Bearer ${agentUser.token}` },
      ]);
      // another company's ticket: not known in this company, tickets does not find it
      expect(await ask(agent, 'joinChatBox', String(foreign.id))).toMatchObject({ ok: false, error: 'ERR_NO_TICKET_FOUND' });
      await roomSize(gw, Rooms.ticket(companyId, other.id), 0);
      await roomSize(gw, Rooms.ticket(foreign.companyId, foreign.id), 0);
      // without an ack the refusal comes as an `error` event
      const error = new Promise((resolve) => agent.socket.once('error', resolve));
      agent.socket.emit('joinChatBox', other.id);
      expect(await error).toMatchObject({ ok: false, event: 'joinChatBox', error: 'ERR_NO_PERMISSION' });
      // unknown here but visible according to tickets
      const unknown = newId();
      stub.answers.set(unknown, { status: 200, body: { id: unknown, companyId, queueId: q1, userId: null } });
      expect(await ask(agent, 'joinChatBox', unknown)).toEqual({ ok: true });
      expect(await ask(agent, 'leaveChatBox', unknown)).toEqual({ ok: true });
      await roomSize(gw, Rooms.ticket(companyId, unknown), 0);
      // garbage
      expect(await ask(agent, 'joinChatBox', 'abc')).toMatchObject({ ok: false, error: 'ERR_VALIDATION' });
      // an admin: any ticket of the company, none of another
      const asked = stub.calls.length;
      expect(await ask(admin, 'joinChatBox', other.id)).toEqual({ ok: true });
      expect(stub.calls.length).toBe(asked);
      expect(await ask(admin, 'joinChatBox', foreign.id)).toMatchObject({ ok: false, error: 'ERR_NO_TICKET_FOUND' });
    });

    it('joinTickets, leaveTickets, joinNotification join rooms of the socket’s own company; userStatus marks the user online', async () => {
      const companyId = newCompanyId();
      const user = await newUser(gw, companyId, { queueIds: [1] });
      const c = await open(user.token);
      expect(await ask(c, 'joinTickets', 'open')).toEqual({ ok: true });
      expect(await ask(c, 'joinTickets', { status: 'pending' })).toEqual({ ok: true });
      expect(await ask(c, 'joinTickets', 'c:1:all')).toMatchObject({ ok: false, error: 'ERR_VALIDATION' });
      expect(await ask(c, 'leaveTickets', 'pending')).toEqual({ ok: true });
      expect(await ask(c, 'joinNotification')).toEqual({ ok: true });
      const [s] = await gw.io.in(Rooms.user(companyId, user.id)).fetchSockets();
      expect(
        [...s!.rooms]
          .filter((r) => r !== s!.id)
          .every((r) => r.startsWith(`c:${companyId}:`) || r === `c:${companyId}` || r === Rooms.platform()),
      ).toBe(true);
      expect(s!.rooms.has(Rooms.status(companyId, 'open'))).toBe(true);
      expect(s!.rooms.has(Rooms.status(companyId, 'pending'))).toBe(false);
      expect(s!.rooms.has(Rooms.notification(companyId))).toBe(true);

      expect(await ask(c, 'userStatus')).toEqual({ ok: true });
      const redis = gw.app.get<Redis>(REDIS);
      const ttl = await waitFor(async () => {
        const ms = await redis.pttl(userOnlineKey(companyId, user.id));
        return ms > 0 ? ms : undefined;
      });
      expect(ttl).toBeGreaterThan(590_000);
      expect(ttl).toBeLessThanOrEqual(600_000);
    });
  });
});
