import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getDataSourceToken } from '@nestjs/typeorm';
import { userOnlineKey } from '@wa/contracts';
import { REDIS } from '@wa/server-kit';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

let t: TicketsUnderTest;
let db: DataSource;

beforeAll(async () => {
  // every call computes today's figures: the test changes tickets between calls
  t = await startTickets({ DASHBOARD_LIVE_TTL_MS: '0' });
  db = t.app.get(getDataSourceToken());
});

afterAll(async () => {
  await t?.close();
});

/** A day in São Paulo (the default time zone; no summer time since 2019), `offset` days from today. */
const spDay = (offset: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() + offset * 86_400_000));
const at = (day: string, hhmm: string) => `${day}T${hhmm}:00-03:00`;

/** Sets a ticket's facts as if it had lived them (status first: the trigger stamps a status change with now). */
async function lived(
  id: number,
  f: {
    status: string;
    userId: number | null;
    createdAt: string;
    acceptedAt?: string | null;
    closedAt?: string | null;
    rating?: number | null;
  },
) {
  await db.query(`UPDATE tickets.tickets SET status = $2, "userId" = $3 WHERE id = $1`, [id, f.status, f.userId]);
  // it waited in the list from its creation
  await db.query(
    `UPDATE tickets.tickets SET "createdAt" = $2, "queuedAt" = $2, "acceptedAt" = $3, "closedAt" = $4, rating = $5 WHERE id = $1`,
    [id, f.createdAt, f.acceptedAt ?? null, f.closedAt ?? null, f.rating ?? null],
  );
}

describe('dashboard (spec 01 §2, §7)', () => {
  it('counts a known set of tickets: counters, attendants, both charts; a past day is kept and forgotten when its tickets change', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin', [], 'Admin');
    const ana = await c.user('user', [], 'Ana');
    const bruno = await c.user('user', [], 'Bruno');
    const conn = await c.connection();
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) {
      const n = randomNumber();
      await c.inbound(conn.id, n, `oi ${i}`);
      ids.push((await ticketOfNumber(t, admin.token, n)).id);
    }
    const [t1, t2, t3, t4] = ids as [number, number, number, number];
    const d2 = spDay(-2);
    // two days ago: Ana waited 10 min to accept and 30 to close (rated 3); Bruno 20 and 60 (rated 1)
    await lived(t1, {
      status: 'closed',
      userId: ana.id,
      createdAt: at(d2, '10:00'),
      acceptedAt: at(d2, '10:10'),
      closedAt: at(d2, '10:40'),
      rating: 3,
    });
    await lived(t2, {
      status: 'closed',
      userId: bruno.id,
      createdAt: at(d2, '11:00'),
      acceptedAt: at(d2, '11:20'),
      closedAt: at(d2, '12:20'),
      rating: 1,
    });
    // today: one accepted by Ana through the API (open: happening), one still pending
    expect((await t.http.put(`/tickets/${t3}`, { token: admin.token, body: { status: 'open', userId: ana.id } })).status).toBe(200);
    await db.query(`UPDATE tickets.tickets SET "createdAt" = "acceptedAt", "queuedAt" = "acceptedAt" WHERE id = $1`, [t3]);
    await (t.app.get(REDIS) as Redis).set(userOnlineKey(c.companyId, ana.id), new Date().toISOString(), 'PX', 60_000);

    const res = await t.http.get('/dashboard?days=3', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.counters).toEqual({ supportHappening: 1, supportPending: 1, supportFinished: 2, avgSupportTime: 45, avgWaitTime: 10 });
    expect(res.body.period).toEqual({ from: d2, to: spDay(0), timeZone: 'America/Sao_Paulo' });
    const byName = Object.fromEntries(res.body.attendants.map((a: { name: string }) => [a.name, a]));
    expect(byName.Ana).toEqual({ id: ana.id, name: 'Ana', rating: 3, avgSupportTime: 30, tickets: 1, online: true });
    expect(byName.Bruno).toEqual({ id: bruno.id, name: 'Bruno', rating: 1, avgSupportTime: 60, tickets: 1, online: false });
    expect(byName.Admin).toMatchObject({ rating: null, tickets: 0, online: false });
    // the same by dates; t4 is pending and t3 open: counted as created today
    const byDates = await t.http.get(`/dashboard?date_from=${d2}&date_to=${spDay(0)}`, { token: admin.token });
    expect(byDates.body.counters).toEqual(res.body.counters);

    const perDay = await t.http.get(`/dashboard/ticketsDay?initialDate=${d2}&finalDate=${spDay(0)}&companyId=${c.companyId}`, {
      token: admin.token,
    });
    expect(perDay.body).toEqual({
      data: [
        { data: d2, total: 2 },
        { data: spDay(-1), total: 0 },
        { data: spDay(0), total: 2 },
      ],
      count: 4,
    });
    const perHour = await t.http.get(`/dashboard/ticketsDay?initialDate=${d2}&finalDate=${d2}`, { token: admin.token });
    expect(perHour.body).toEqual({
      data: [
        { horario: '10', total: 1 },
        { horario: '11', total: 1 },
      ],
      count: 2,
    });
    const perUser = await t.http.get(`/dashboard/ticketsUsers?initialDate=${d2}&finalDate=${spDay(0)}`, { token: admin.token });
    expect(perUser.body).toEqual({
      data: [
        { nome: 'Ana', quantidade: 1 },
        { nome: 'Bruno', quantidade: 1 },
      ],
      count: 2,
    });

    // past days are kept once computed…
    const kept = await db.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day FROM tickets.dashboard_days WHERE "companyId" = $1 ORDER BY day`,
      [c.companyId],
    );
    expect(kept.map((r: { day: string }) => r.day)).toEqual([d2, spDay(-1)]);
    // …and forgotten when a ticket that counted in them changes: Bruno's customer changes their rating
    await db.query(`UPDATE tickets.tickets SET rating = 3 WHERE id = $1`, [t2]);
    const after = await t.http.get('/dashboard?days=3', { token: admin.token });
    expect(after.body.attendants.find((a: { name: string }) => a.name === 'Bruno').rating).toBe(3);
    // reopening one of them: it is happening again, no longer finished
    expect((await t.http.put(`/tickets/${t1}`, { token: admin.token, body: { status: 'open', userId: ana.id } })).status).toBe(200);
    const reopened = await t.http.get('/dashboard?days=3', { token: admin.token });
    // a reopened ticket waited for no one: its two days closed are not counted as waiting
    expect(reopened.body.counters).toMatchObject({
      supportHappening: 2,
      supportPending: 1,
      supportFinished: 1,
      avgSupportTime: 60,
      avgWaitTime: 10,
    });
    void t4;
  });

  it('asks for a filter ("Parametrize o filtro"), refuses bad dates, is for admins only and counts one company', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const agent = await c.user('user');
    for (const path of [
      '/dashboard',
      '/dashboard?date_from=2026-11-01',
      '/dashboard?days=0',
      '/dashboard?date_from=2026-02-30&date_to=2026-03-01',
      '/dashboard?date_from=2026-11-10&date_to=2026-11-01',
      '/dashboard/ticketsDay',
      '/dashboard/ticketsUsers?initialDate=ontem&finalDate=hoje',
    ]) {
      const res = await t.http.get(path, { token: admin.token });
      expect({ path, status: res.status, error: res.body.error }).toEqual({ path, status: 400, error: 'ERR_VALIDATION' });
      expect(JSON.stringify(res.body)).toContain('Parametrize o filtro');
    }
    expect((await t.http.get('/dashboard?date_from=2024-01-01&date_to=2026-01-01', { token: admin.token })).status).toBe(400);
    expect((await t.http.get('/dashboard?days=7', { token: agent.token })).status).toBe(403);
    // another company's tickets are not counted here
    const other = new TestCompany(t);
    const otherAdmin = await other.user('admin');
    const conn = await other.connection();
    await other.inbound(conn.id, randomNumber(), 'oi');
    await ticketOfNumber(t, otherAdmin.token, '');
    const mine = await t.http.get('/dashboard?days=7', { token: admin.token });
    expect(mine.body.counters).toEqual({ supportHappening: 0, supportPending: 0, supportFinished: 0, avgSupportTime: 0, avgWaitTime: 0 });
    expect(
      (await t.http.get(`/dashboard/ticketsDay?initialDate=${spDay(-6)}&finalDate=${spDay(0)}`, { token: admin.token })).body.count,
    ).toBe(0);
  });
});
