import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { userOnlineKey, type DashboardAnswer, type DashboardChart } from '@wa/contracts';
import { DomainError, InjectRedis } from '@wa/server-kit';
import { companyTimeZone, daysFromToday, startOfDayIn, TIME_ZONE_SETTING, todayIn } from '@wa/domain';
import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { TicketsEnv } from '../config/env.js';
import { CallerService, type Caller } from '../identity/caller.service.js';
import { ReadModels } from '../read-models/read-models.repository.js';
import { daysBetween, emptyUserDay, isDay, minutes, sumDays, type DayFigures, type UserDayFigures } from './dashboard-figures.js';
import type { DashboardChartQueryDto, DashboardQueryDto } from './dashboard.dto.js';
import {
  COUNT_CONNECTED,
  COUNT_OPEN_AND_PENDING,
  LOCK_DASHBOARD_DAYS,
  SELECT_DASHBOARD_DAYS,
  TICKETS_ACCEPTED_BY_DAY_AND_USER,
  TICKETS_BY_HOUR,
  TICKETS_CLOSED_BY_DAY_AND_USER,
  TICKETS_CREATED_BY_DAY,
  UPSERT_DASHBOARD_DAYS,
} from './dashboard.queries.js';

const MAX_DAYS = 366;
const filterError = () =>
  new DomainError('ERR_VALIDATION', { details: [{ field: 'date', messages: ['Parametrize o filtro'] }] }, 'Parametrize o filtro');

interface Period {
  timeZone: string;
  from: string;
  to: string;
  today: string;
}

/**
 * The dashboard (spec 01 §2, §7), read from the tickets' facts (accepted, closed, rating: kept by a trigger)
 * through indexes. A past day's figures are computed once and kept in `dashboard_days` (a change to a ticket
 * that counted in it forgets it); today's are computed on each call. Current counts (open, pending) are of now.
 */
@Injectable()
export class DashboardService {
  /** per company: today's figures and the current counts, with when they were computed (one computation in flight) */
  private readonly live = new Map<string, { at: number; value: Promise<unknown> }>();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectRedis() private readonly redis: Redis,
    private readonly readModels: ReadModels,
    private readonly callers: CallerService,
    private readonly env: TicketsEnv,
  ) {}

  async dashboard(caller: Caller, q: DashboardQueryDto): Promise<DashboardAnswer> {
    const period = await this.period(caller.companyId, q.days, q.date_from, q.date_to);
    const days = await this.figures(caller.companyId, period);
    const { total, byUser } = sumDays(days);
    const now = await this.recent(
      `now|${caller.companyId}`,
      () => this.db.query(COUNT_OPEN_AND_PENDING, [caller.companyId]) as Promise<Array<{ status: string; n: number }>>,
    );
    const count = (s: string) => now.find((r) => r.status === s)?.n ?? 0;
    const users = this.callers.usersOf(caller.companyId);
    const online = users.length ? await this.redis.mget(users.map((u) => userOnlineKey(caller.companyId, u.id))) : [];
    const attendants = users.map((u, i) => {
      const f = byUser.get(u.id) ?? emptyUserDay();
      return {
        id: u.id,
        name: u.name,
        rating: f.ratingCount ? Math.round((f.ratingSum / f.ratingCount) * 10) / 10 : null,
        avgSupportTime: minutes(f.supportSeconds, f.supportCount),
        tickets: f.finished,
        online: !!online[i],
      };
    });
    const answer: DashboardAnswer = {
      counters: {
        supportHappening: count('open'),
        supportPending: count('pending'),
        supportFinished: total.finished,
        avgSupportTime: minutes(total.supportSeconds, total.supportCount),
        avgWaitTime: minutes(total.waitSeconds, total.accepted),
      },
      attendants,
      period: { from: period.from, to: period.to, timeZone: period.timeZone },
    };
    // the provider's cards (spec 01 §2): super users only
    if (caller.super) {
      const [row] = await this.db.query(COUNT_CONNECTED);
      answer.counters.totalWhatsappSessions = (row as { n: number }).n;
      answer.counters.totalCompanies = this.callers.companyCount();
    }
    return answer;
  }

  /** GET /dashboard/ticketsUsers: tickets each user closed in the period, most first. */
  async ticketsUsers(caller: Caller, q: DashboardChartQueryDto): Promise<DashboardChart> {
    const period = await this.period(caller.companyId, undefined, q.initialDate, q.finalDate);
    const { byUser } = sumDays(await this.figures(caller.companyId, period));
    const data = [...byUser.entries()]
      .filter(([, f]) => f.finished > 0)
      .map(([id, f]) => ({ nome: this.callers.nameOf(caller.companyId, id) || `#${id}`, quantidade: f.finished }))
      .sort((a, b) => b.quantidade - a.quantidade || a.nome.localeCompare(b.nome));
    return { data, count: data.reduce((n, d) => n + d.quantidade, 0) };
  }

  /** GET /dashboard/ticketsDay: tickets created per day, or per hour when the period is one day. */
  async ticketsDay(caller: Caller, q: DashboardChartQueryDto): Promise<DashboardChart> {
    const period = await this.period(caller.companyId, undefined, q.initialDate, q.finalDate);
    if (period.from === period.to) {
      const rows: Array<{ hour: number; n: number }> = await this.db.query(TICKETS_BY_HOUR, [
        caller.companyId,
        period.timeZone,
        startOfDayIn(period.from, period.timeZone),
        startOfDayIn(nextDay(period.from), period.timeZone),
      ]);
      const data = rows.map((r) => ({ horario: String(r.hour).padStart(2, '0'), total: r.n }));
      return { data, count: data.reduce((n, d) => n + d.total, 0) };
    }
    const days = await this.figures(caller.companyId, period);
    const data = daysBetween(period.from, period.to).map((day, i) => ({ data: day, total: days[i]?.created ?? 0 }));
    return { data, count: data.reduce((n, d) => n + d.total, 0) };
  }

  /** The period asked for, in the company's days: the last `days` days, or from–to; neither: "Parametrize o filtro". */
  private async period(companyId: number, days: number | undefined, from: string | undefined, to: string | undefined): Promise<Period> {
    const timeZone = companyTimeZone(await this.readModels.setting(companyId, TIME_ZONE_SETTING));
    const today = todayIn(timeZone);
    if (days) return { timeZone, from: daysFromToday(1 - days, timeZone), to: today, today };
    if (!from && !to) throw filterError();
    if (!isDay(from) || !isDay(to) || from > to) throw filterError();
    if (daysBetween(from, to).length > MAX_DAYS) {
      throw new DomainError('ERR_VALIDATION', { details: [{ field: 'date', messages: [`Até ${MAX_DAYS} dias`] }] }, `Até ${MAX_DAYS} dias`);
    }
    return { timeZone, from, to, today };
  }

  /** Each day's figures, in order: past days from the store (computed once), today computed now, future days empty. */
  private async figures(companyId: number, p: Period): Promise<DayFigures[]> {
    const all = daysBetween(p.from, p.to);
    const past = all.filter((d) => d < p.today);
    const kept = new Map<string, DayFigures>();
    if (past.length) {
      const rows: Array<{ day: string; figures: DayFigures }> = await this.db.query(SELECT_DASHBOARD_DAYS, [
        companyId,
        p.timeZone,
        past[0],
        past[past.length - 1],
      ]);
      for (const r of rows) kept.set(r.day, r.figures);
      const missing = past.filter((d) => !kept.has(d));
      if (missing.length) {
        const fresh = await this.db.transaction(async (tx) => {
          // alone against the changes that forget days (their trigger holds this lock shared): what is read
          // here includes every change committed before, and any later one forgets what is kept
          await tx.query(LOCK_DASHBOARD_DAYS, [companyId]);
          const computed = await this.compute(
            companyId,
            p.timeZone,
            missing[0] as string,
            missing[missing.length - 1] as string,
            (sql, args) => tx.query(sql, args),
          );
          const days = missing.map((d) => ({ day: d, figures: computed.get(d) ?? { created: 0, users: {} } }));
          await tx.query(UPSERT_DASHBOARD_DAYS, [companyId, p.timeZone, JSON.stringify(days)]);
          return days;
        });
        for (const f of fresh) kept.set(f.day, f.figures);
      }
    }
    if (all.includes(p.today)) {
      const today = await this.recent(`today|${companyId}|${p.timeZone}|${p.today}`, () =>
        this.compute(companyId, p.timeZone, p.today, p.today),
      );
      kept.set(p.today, today.get(p.today) ?? { created: 0, users: {} });
    }
    return all.map((d) => kept.get(d) ?? { created: 0, users: {} });
  }

  /** `work`'s answer, computed again once it is older than DASHBOARD_LIVE_TTL_MS; callers meanwhile share one computation. */
  private recent<T>(key: string, work: () => Promise<T>): Promise<T> {
    const hit = this.live.get(key);
    if (hit && Date.now() - hit.at < this.env.DASHBOARD_LIVE_TTL_MS) return hit.value as Promise<T>;
    const value = work();
    this.live.set(key, { at: Date.now(), value });
    value.catch(() => this.live.delete(key));
    // a long-running process keeps only what is still fresh
    if (this.live.size > 10_000)
      for (const [k, v] of this.live) if (Date.now() - v.at >= this.env.DASHBOARD_LIVE_TTL_MS) this.live.delete(k);
    return value;
  }

  /** Figures of the days from–to (the company's days), from the tickets' facts: three indexed range scans. */
  private async compute(
    companyId: number,
    timeZone: string,
    from: string,
    to: string,
    query: (sql: string, args: unknown[]) => Promise<unknown> = (sql, args) => this.db.query(sql, args),
  ): Promise<Map<string, DayFigures>> {
    const start = startOfDayIn(from, timeZone);
    const end = startOfDayIn(nextDay(to), timeZone);
    const args = [companyId, timeZone, start, end];
    // one after the other: inside a transaction they share its connection
    const created = (await query(TICKETS_CREATED_BY_DAY, args)) as Array<{ day: string; n: number }>;
    const closed = (await query(TICKETS_CLOSED_BY_DAY_AND_USER, args)) as Array<{ day: string; userId: number } & Partial<UserDayFigures>>;
    const accepted = (await query(TICKETS_ACCEPTED_BY_DAY_AND_USER, args)) as Array<
      { day: string; userId: number } & Partial<UserDayFigures>
    >;
    const out = new Map<string, DayFigures>();
    const dayOf = (d: string) => out.get(d) ?? (out.set(d, { created: 0, users: {} }).get(d) as DayFigures);
    for (const r of created) dayOf(r.day).created = r.n;
    for (const r of [...closed, ...accepted]) {
      const users = dayOf(r.day).users;
      const f = (users[String(r.userId)] ??= emptyUserDay());
      for (const k of Object.keys(f) as Array<keyof UserDayFigures>) if (r[k] !== undefined) f[k] += Number(r[k]);
    }
    return out;
  }
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
