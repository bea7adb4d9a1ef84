import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { signAccessToken } from '@wa/auth';
import { createDataSource, runMigrations } from '@wa/database';
import { HttpClient, pngFile, TEST_DATABASE_URL, TEST_JWT_SECRET, uniqueEmail, waitFor } from '@wa/testing';
import { randomInt, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createCompanyWithAdmin, ensureFullPlan, isoDateFromNow } from '../../services/auth/src/database/companies.js';
import { authDatabase } from '../../services/auth/src/database/data-source.js';
import { campaignsDatabase } from '../../services/campaigns/src/database/data-source.js';
import { ticketsDatabase } from '../../services/tickets/src/database/data-source.js';
import { whatsappDatabase } from '../../services/whatsapp-sessions/src/database/data-source.js';
import { startProcess, startProcesses, stopProcesses, type ServiceProcess } from './processes.js';

/**
 * Campaigns against the real services (auth for the plan gate, whatsapp-sessions with the sandbox phone, two
 * campaigns replicas): every contact gets exactly one message whatever is killed, cancel and restart, confirmations
 * and opt-outs answered by the sandbox phone, refusals, the daily cap, one pacer per connection.
 */
const FLOOR_MS = 150;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let auth: ServiceProcess;
let sessions: ServiceProcess;
let tickets: ServiceProcess;
let campaigns: ServiceProcess[] = [];
let db: DataSource;
let companyId: number;
let token: string;
let connectionId: number;

const campaignsEnv = () => ({
  AUTH_URL: auth.url,
  TICKETS_URL: tickets.url,
  CAMPAIGN_MIN_GAP_MS: String(FLOOR_MS),
  CAMPAIGN_EXPIRY_SWEEP_MS: '500',
  COMPANY_STANDING_TTL_MS: '500',
});
const live = () => campaigns.find((p) => p.child.exitCode === null && p.child.signalCode === null) as ServiceProcess;
const api = () => new HttpClient(live().url);
const phone = () => new HttpClient(sessions.url);
const conversations = () => new HttpClient(tickets.url);

/** What the sandbox phone sent through the connection: the count per recipient of bodies starting with `prefix`. */
async function sentTo(prefix: string): Promise<Map<string, number>> {
  const rows: Array<{ to: string; n: number }> = await db.query(
    `SELECT "to", count(*)::int AS n FROM whatsapp.sandbox_outbox WHERE "connectionId" = $1 AND body LIKE $2 GROUP BY "to"`,
    [connectionId, `${prefix}%`],
  );
  return new Map(rows.map((r) => [r.to, r.n]));
}

const numbers = (n: number) => Array.from({ length: n }, () => `5511${randomInt(910_000_000, 999_999_999)}`);

async function listWith(name: string, people: string[]): Promise<number> {
  const list = await api().post('/contact-lists', { token, body: { name } });
  expect(list.status).toBe(201);
  for (const [i, number] of people.entries()) {
    const item = await api().post('/contact-list-items', {
      token,
      body: { name: `Pessoa ${i}`, number, email: '', contactListId: list.body.id },
    });
    expect(item.status).toBe(201);
  }
  return list.body.id as number;
}

async function campaignOn(listId: number, body: Record<string, unknown>): Promise<number> {
  const res = await api().post('/campaigns', {
    token,
    body: {
      name: `Camp ${randomInt(1000, 9999)}`,
      whatsappId: connectionId,
      contactListId: listId,
      scheduledAt: new Date().toISOString(),
      ...body,
    },
  });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

async function statusOf(id: number): Promise<string> {
  return (await api().get(`/campaigns/${id}`, { token })).body.status as string;
}

async function finished(id: number, timeoutMs = 60_000): Promise<void> {
  await waitFor(async () => (await statusOf(id)) === 'FINALIZADA', { timeoutMs, intervalMs: 250 });
}

beforeAll(async () => {
  await runMigrations(authDatabase(TEST_DATABASE_URL));
  await runMigrations(whatsappDatabase(TEST_DATABASE_URL));
  await runMigrations(campaignsDatabase(TEST_DATABASE_URL));
  await runMigrations(ticketsDatabase(TEST_DATABASE_URL));
  db = createDataSource(campaignsDatabase(TEST_DATABASE_URL, 2));
  await db.initialize();
  const authDb = createDataSource(authDatabase(TEST_DATABASE_URL, 1));
  await authDb.initialize();
  const { company, admin } = await authDb.transaction(async (tx) => {
    const plan = await ensureFullPlan(tx);
    return createCompanyWithAdmin(tx, {
      name: `Campanhas ${randomUUID().slice(0, 8)}`,
      dueDate: isoDateFromNow(30),
      planId: plan.id,
      admin: { name: 'Admin', email: uniqueEmail('campaigns'), password: 'secret123' },
    });
  });
  await authDb.destroy();
  companyId = company.id;
  token = signAccessToken({ id: admin.id, companyId, profile: 'admin', super: false, sid: randomUUID() }, TEST_JWT_SECRET);
  const started = await startProcesses({
    auth: {},
    sessions: { service: 'whatsapp-sessions', env: (urls) => ({ AUTH_URL: urls.auth, SESSION_COMPANY_IDS: String(companyId) }) },
    tickets: (urls) => ({ AUTH_URL: urls.auth }),
  });
  auth = started.auth;
  sessions = started.sessions;
  tickets = started.tickets;
  const two = await startProcesses({
    one: { service: 'campaigns', env: campaignsEnv() },
    two: { service: 'campaigns', env: campaignsEnv() },
  });
  campaigns = [two.one, two.two];
  const created = await phone().post('/whatsapp', { token, body: { name: 'Campanhas', channel: 'sandbox' } });
  expect(created.status).toBe(201);
  connectionId = created.body.id;
  await waitFor(async () => (await phone().get(`/whatsapp/${connectionId}`, { token })).body.status === 'CONNECTED');
  // campaigns' copy of the connection knows it is up before anything starts
  await waitFor(
    async () => (await db.query(`SELECT status FROM campaigns.connections WHERE id = $1`, [connectionId]))[0]?.status === 'CONNECTED',
  );
  const settings = await api().post('/campaign-settings', {
    token,
    body: {
      settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, variables: [{ key: 'loja', value: 'Loja Centro' }] },
    },
  });
  expect(settings.status).toBeLessThan(300);
}, 180_000);

afterAll(async () => {
  await stopProcesses([...campaigns, sessions, tickets, auth], 'SIGKILL');
  await db?.destroy();
});

describe('campaigns: every contact exactly once, at the connection pace', () => {
  it('a list of 50, one replica SIGKILLed mid-run and restarted: 50 sends, none twice, the campaign FINALIZADA', async () => {
    const people = numbers(50);
    const listId = await listWith('Cinquenta', people);
    const id = await campaignOn(listId, { message1: 'kill-run {nome} da {loja}' });
    // a few have gone out: the replica pacing the connection (whichever) is killed, another takes over
    await waitFor(async () => (await sentTo('kill-run')).size >= 8, { timeoutMs: 30_000, intervalMs: 100 });
    const pacing = campaigns.find((p) => p.output().includes('pacing campaigns')) ?? campaigns[0]!;
    await pacing.stop('SIGKILL');
    const restarted = await startProcess('campaigns', campaignsEnv());
    campaigns = [...campaigns.filter((p) => p !== pacing), restarted];
    await finished(id, 90_000);
    await sleep(1000);
    const sent = await sentTo('kill-run');
    expect([...sent.values()].filter((n) => n !== 1)).toEqual([]);
    expect([...sent.keys()].sort()).toEqual([...people].sort());
    const report = (await api().get(`/campaigns/${id}/report`, { token })).body;
    expect(report).toMatchObject({ valid: 50, invalid: 0, sent: 50, failed: 0, pending: 0 });
    // the variables were filled
    const bodies: Array<{ body: string }> = await db.query(
      `SELECT body FROM whatsapp.sandbox_outbox WHERE "connectionId" = $1 AND body LIKE 'kill-run%' LIMIT 1`,
      [connectionId],
    );
    expect(bodies[0]?.body).toMatch(/^kill-run Pessoa \d+ da Loja Centro$/);
  }, 180_000);

  it('cancel: at most one more leaves; restart: only the rest go, none twice', async () => {
    await api().post('/campaign-settings', {
      token,
      body: { settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, variables: [] } },
    });
    const people = numbers(12);
    const listId = await listWith('Doze', people);
    const id = await campaignOn(listId, { message1: 'stop-go' });
    await waitFor(async () => (await sentTo('stop-go')).size >= 3, { timeoutMs: 30_000, intervalMs: 50 });
    const cancel = await api().post(`/campaigns/${id}/cancel`, { token });
    expect(cancel.status).toBe(200);
    expect(cancel.body.status).toBe('CANCELADA');
    const atCancel = (await sentTo('stop-go')).size;
    await sleep(FLOOR_MS * 8);
    const after = (await sentTo('stop-go')).size;
    expect(after - atCancel).toBeLessThanOrEqual(1);
    expect(after).toBeLessThan(12);
    // a second cancel is refused: it is not running
    expect((await api().post(`/campaigns/${id}/cancel`, { token })).status).toBe(409);
    const restart = await api().post(`/campaigns/${id}/restart`, { token });
    expect(restart.status).toBe(200);
    expect(restart.body.status).toBe('EM_ANDAMENTO');
    await finished(id);
    const sent = await sentTo('stop-go');
    expect([...sent.values()].filter((n) => n !== 1)).toEqual([]);
    expect(sent.size).toBe(12);
  }, 120_000);

  it('a number that is not on WhatsApp fails its row at once, and the campaign still finishes', async () => {
    const people = numbers(3);
    const gone = people[1]!;
    expect((await phone().post(`/whatsappsession/${connectionId}/sandbox/leave`, { token, body: { number: gone } })).status).toBeLessThan(
      300,
    );
    const listId = await listWith('Com recusa', people);
    const id = await campaignOn(listId, { message1: 'refused-one' });
    await finished(id);
    const report = (await api().get(`/campaigns/${id}/report`, { token })).body;
    expect(report).toMatchObject({ sent: 2, failed: 1, pending: 0 });
    expect((await sentTo('refused-one')).has(gone)).toBe(false);
  }, 120_000);

  it('confirmation: the message goes only after the answer; an unanswered one ends, so the campaign finishes', async () => {
    const [answers, silent] = numbers(2) as [string, string];
    const listId = await listWith('Confirma', [answers, silent]);
    const id = await campaignOn(listId, {
      confirmation: true,
      confirmationMessage1: 'confirm-ask posso enviar?',
      message1: 'confirm-main oferta',
    });
    await waitFor(async () => (await sentTo('confirm-ask')).size === 2, { timeoutMs: 30_000, intervalMs: 100 });
    expect((await sentTo('confirm-main')).size).toBe(0);
    // the answer comes with another customer's message in one delivery: published as one batch of the connection's
    const [other] = numbers(1) as [string];
    await phone().post(`/whatsappsession/${connectionId}/sandbox/inbound/batch`, {
      token,
      body: {
        messages: [
          { from: other, name: 'Outro cliente', body: 'bom dia' },
          { from: answers, name: 'Quem responde', body: 'Pode sim' },
        ],
      },
    });
    await waitFor(async () => (await sentTo('confirm-main')).get(answers) === 1, { timeoutMs: 30_000, intervalMs: 100 });
    expect((await sentTo('confirm-main')).has(silent)).toBe(false);
    // the silent one's confirmation is older than CAMPAIGN_CONFIRMATION_HOURS: it ends unconfirmed
    await db.query(
      `UPDATE campaigns.shippings SET "confirmationRequestedAt" = now() - interval '25 hours' WHERE "campaignId" = $1 AND number = $2`,
      [id, silent],
    );
    await finished(id);
    const report = (await api().get(`/campaigns/${id}/report`, { token })).body;
    expect(report).toMatchObject({ confirmationRequested: 2, confirmed: 1, sent: 1, pending: 0 });
  }, 120_000);

  it('opt-out: SAIR after a campaign message stops every later campaign for that contact, with one short confirmation', async () => {
    const [leaver, stays] = numbers(2) as [string, string];
    const listId = await listWith('Opt-out', [leaver, stays]);
    const first = await campaignOn(listId, { message1: 'optout-first' });
    await finished(first);
    await phone().post(`/whatsappsession/${connectionId}/sandbox/inbound`, { token, body: { from: leaver, name: 'Sai', body: 'Sáir' } });
    await waitFor(
      async () =>
        (await db.query(`SELECT 1 FROM campaigns.opt_outs WHERE "companyId" = $1 AND number = $2`, [companyId, leaver])).length === 1,
    );
    await waitFor(async () => (await sentTo('Pronto! Você não receberá')).get(leaver) === 1, { timeoutMs: 30_000, intervalMs: 100 });
    const second = await campaignOn(listId, { message1: 'optout-second' });
    await finished(second);
    const sent = await sentTo('optout-second');
    expect([...sent.keys()]).toEqual([stays]);
    expect((await api().get(`/campaigns/${second}/report`, { token })).body).toMatchObject({ optedOut: 1, sent: 1 });
  }, 120_000);

  it("the connection's daily cap holds across two campaigns: the rest wait for the next day, counted as pending", async () => {
    // what was sent today on the connection so far, plus 3 more
    const today: Array<{ count: number }> = await db.query(
      `SELECT coalesce(sum(count), 0)::int AS count FROM campaigns.daily_sends WHERE "connectionId" = $1`,
      [connectionId],
    );
    const cap = (today[0]?.count ?? 0) + 3;
    expect((await phone().put(`/whatsapp/${connectionId}`, { token, body: { campaignDailyLimit: cap } })).status).toBe(200);
    await waitFor(
      async () =>
        (await db.query(`SELECT "campaignDailyLimit" FROM campaigns.connections WHERE id = $1`, [connectionId]))[0]?.campaignDailyLimit ===
        cap,
    );
    try {
      const a = await campaignOn(await listWith('Cota A', numbers(2)), { message1: 'cap-a' });
      const b = await campaignOn(await listWith('Cota B', numbers(2)), { message1: 'cap-b' });
      const both = async () => (await sentTo('cap-a')).size + (await sentTo('cap-b')).size;
      await waitFor(async () => (await both()) === 3, { timeoutMs: 30_000, intervalMs: 100 });
      await sleep(FLOOR_MS * 10);
      expect(await both()).toBe(3);
      const reports = await Promise.all(
        [a, b].map(async (id) => ({ id, ...(await api().get(`/campaigns/${id}/report`, { token })).body })),
      );
      const waiting = reports.filter((r) => r.pending > 0);
      // the one over the cap waits for tomorrow, still running: not failed, not finished
      expect(waiting.map((r) => r.pending)).toEqual([1]);
      expect(await statusOf(waiting[0]!.id)).toBe('EM_ANDAMENTO');
      for (const id of [a, b]) await api().post(`/campaigns/${id}/cancel`, { token });
    } finally {
      await phone().put(`/whatsapp/${connectionId}`, { token, body: { campaignDailyLimit: 0 } });
    }
  }, 120_000);

  it('two replicas never pace one connection at once: one lease holder, each contact once', async () => {
    expect(campaigns.filter((p) => p.child.exitCode === null && p.child.signalCode === null)).toHaveLength(2);
    await waitFor(
      async () =>
        (await db.query(`SELECT "campaignDailyLimit" FROM campaigns.connections WHERE id = $1`, [connectionId]))[0]?.campaignDailyLimit ===
        0,
    );
    const people = numbers(10);
    const id = await campaignOn(await listWith('Duas', people), { message1: 'two-replicas' });
    await finished(id);
    const sent = await sentTo('two-replicas');
    expect([...sent.values()].filter((n) => n !== 1)).toEqual([]);
    expect(sent.size).toBe(10);
    // one pacer: the sends are the floor apart (two pacers at once would halve the gaps), judged by the median
    const times: Array<{ at: number }> = await db.query(
      `SELECT (extract(epoch FROM "sentAt") * 1000)::float8 AS at FROM whatsapp.sandbox_outbox
        WHERE "connectionId" = $1 AND body LIKE 'two-replicas%' ORDER BY "sentAt"`,
      [connectionId],
    );
    const gaps = times
      .slice(1)
      .map((t, i) => t.at - times[i]!.at)
      .sort((x, y) => x - y);
    expect(gaps[Math.floor(gaps.length / 2)]).toBeGreaterThanOrEqual(FLOOR_MS * 0.8);
  }, 120_000);

  it('a tag as the audience and a file list after the message; the answer opens a ticket that shows the campaign message', async () => {
    const [tagged, untagged] = numbers(2) as [string, string];
    for (const n of [tagged, untagged])
      await phone().post(`/whatsappsession/${connectionId}/sandbox/inbound`, {
        token,
        body: { from: n, name: `Cliente ${n.slice(-4)}`, body: 'oi' },
      });
    const ticketOf = (n: string) =>
      waitFor(
        async () =>
          (await conversations().get(`/tickets?showAll=true&searchParam=${n}`, { token })).body.tickets?.[0] as { id: number } | undefined,
      );
    const first = await ticketOf(tagged);
    await ticketOf(untagged);
    const tag = await conversations().post('/tags', { token, body: { name: `VIP ${randomInt(1000, 9999)}` } });
    expect(tag.status).toBe(201);
    expect((await conversations().put(`/ticket-tags/${first.id}/${tag.body.id}`, { token })).status).toBe(200);
    // the conversation ends: the contact's answer to the campaign opens a new ticket
    expect((await conversations().put(`/tickets/${first.id}`, { token, body: { status: 'closed' } })).status).toBe(200);
    const list = await conversations().post('/files', {
      token,
      body: { name: 'Catálogo', message: 'Nosso catálogo', options: [{ name: 'Foto' }] },
    });
    expect(list.status).toBe(201);
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(pngFile())], { type: 'image/png' }), 'catalogo.png');
    form.append('id', String(list.body.options[0].id));
    expect((await conversations().post(`/files/uploadList/${list.body.id}`, { token, form })).status).toBe(200);

    // references that are not the company's are refused
    const base = { name: 'Refs', whatsappId: connectionId, message1: 'x' };
    expect((await api().post('/campaigns', { token, body: { ...base, tagListId: '99999999' } })).status).toBe(404);
    expect(
      (await api().post('/campaigns', { token, body: { ...base, tagListId: String(tag.body.id), fileListId: 99_999_999 } })).status,
    ).toBe(404);

    const created = await api().post('/campaigns', {
      token,
      body: {
        ...base,
        name: 'Por etiqueta',
        tagListId: String(tag.body.id),
        fileListId: list.body.id,
        message1: 'tag-camp Olá {nome}',
        scheduledAt: new Date().toISOString(),
      },
    });
    expect(created.status).toBe(201);
    await finished(created.body.id);
    // the message and then the file, to the tagged contact only
    const sent: Array<{ to: string; body: string }> = await db.query(
      `SELECT "to", body FROM whatsapp.sandbox_outbox WHERE "connectionId" = $1 AND "to" IN ($2, $3) AND body <> 'oi' ORDER BY id`,
      [connectionId, tagged, untagged],
    );
    expect(sent.map((r) => r.to)).toEqual([tagged, tagged]);
    expect(sent[0]!.body).toBe(`tag-camp Olá Cliente ${tagged.slice(-4)}`);

    await phone().post(`/whatsappsession/${connectionId}/sandbox/inbound`, {
      token,
      body: { from: tagged, name: 'Cliente', body: 'quero saber mais' },
    });
    const reopened = await waitFor(async () => {
      const t = (await conversations().get(`/tickets?showAll=true&searchParam=${tagged}`, { token })).body.tickets?.find(
        (x: { id: number }) => x.id !== first.id,
      );
      return t as { id: number } | undefined;
    });
    const messages = await waitFor(async () => {
      const all = (await conversations().get(`/messages/${reopened.id}`, { token })).body.messages as Array<{
        body: string;
        fromMe: boolean;
      }>;
      return all.length >= 2 ? all : undefined;
    });
    expect(messages.map((m) => [m.body, m.fromMe])).toEqual([
      [`tag-camp Olá Cliente ${tagged.slice(-4)}`, true],
      ['quero saber mais', false],
    ]);
  }, 120_000);

  it("a plan that loses campaigns stops the company's running campaign, with the reason", async () => {
    const listId = await listWith('Plano', numbers(40));
    const id = await campaignOn(listId, { message1: 'plan-lost' });
    await waitFor(async () => (await sentTo('plan-lost')).size >= 3, { timeoutMs: 30_000, intervalMs: 50 });
    // the company moves to a copy of its plan without campaigns
    const [{ planId }] = await db.query(`SELECT "planId" FROM auth.companies WHERE id = $1`, [companyId]);
    const copy = 900_000 + randomInt(1, 99_999);
    await db.query(
      `INSERT INTO auth.plans SELECT (jsonb_populate_record(NULL::auth.plans,
         to_jsonb(p) || jsonb_build_object('id', $2::int, 'name', $3::text, 'useCampaigns', false))).* FROM auth.plans p WHERE id = $1`,
      [planId, copy, `Sem campanhas ${copy}`],
    );
    await db.query(`UPDATE auth.companies SET "planId" = $2 WHERE id = $1`, [companyId, copy]);
    try {
      await waitFor(async () => (await statusOf(id)) === 'CANCELADA', { timeoutMs: 20_000, intervalMs: 100 });
      const record = (await api().get(`/campaigns/${id}`, { token })).body;
      expect(record.statusReason).toMatch(/plano/i);
      const stopped = (await sentTo('plan-lost')).size;
      await sleep(FLOOR_MS * 8);
      expect((await sentTo('plan-lost')).size).toBeLessThanOrEqual(stopped + 1);
      expect(stopped).toBeLessThan(40);
      // restarting is refused while the plan does not allow campaigns
      expect((await api().post(`/campaigns/${id}/restart`, { token })).status).toBe(403);
    } finally {
      await db.query(`UPDATE auth.companies SET "planId" = $2 WHERE id = $1`, [companyId, planId]);
      await db.query(`DELETE FROM auth.plans WHERE id = $1`, [copy]);
      // campaigns reuses the refusal it read (the refused restart above) for COMPANY_STANDING_TTL_MS: the plan,
      // restored behind its back, holds for the next test only once that has passed (a campaign created sooner is
      // refused its start, as it should be while the plan lacks campaigns)
      await sleep(Number(campaignsEnv().COMPANY_STANDING_TTL_MS) + 200);
    }
  }, 120_000);

  it('a number WhatsApp bans pauses its campaigns (CANCELADA with the reason) instead of burning the list', async () => {
    const created = await phone().post('/whatsapp', { token, body: { name: 'Será banido', channel: 'sandbox' } });
    expect(created.status).toBe(201);
    const banned = created.body.id as number;
    await waitFor(async () => (await phone().get(`/whatsapp/${banned}`, { token })).body.status === 'CONNECTED');
    await waitFor(
      async () => (await db.query(`SELECT status FROM campaigns.connections WHERE id = $1`, [banned]))[0]?.status === 'CONNECTED',
    );
    const listId = await listWith('Banimento', numbers(40));
    const res = await api().post('/campaigns', {
      token,
      body: { name: 'Banida', whatsappId: banned, contactListId: listId, message1: 'ban-run', scheduledAt: new Date().toISOString() },
    });
    expect(res.status).toBe(201);
    const id = res.body.id as number;
    const sentOn = async () =>
      Number(
        (
          await db.query(`SELECT count(*)::int AS n FROM whatsapp.sandbox_outbox WHERE "connectionId" = $1 AND body = 'ban-run'`, [banned])
        )[0].n,
      );
    await waitFor(async () => (await sentOn()) >= 3, { timeoutMs: 30_000, intervalMs: 50 });
    expect((await phone().post(`/whatsappsession/${banned}/sandbox/ban`, { token })).status).toBeLessThan(300);
    await waitFor(async () => (await statusOf(id)) === 'CANCELADA', { timeoutMs: 20_000, intervalMs: 100 });
    expect((await api().get(`/campaigns/${id}`, { token })).body.statusReason).toMatch(/baniu/);
    const report = (await api().get(`/campaigns/${id}/report`, { token })).body;
    // the rest wait, not failed
    expect(report.pending + report.sent).toBe(40);
    expect(report.failed).toBe(0);
  }, 120_000);
});
