import { Injectable, Logger } from '@nestjs/common';
import { companyActive, planRefusal, signServiceToken } from '@wa/auth';
import type { CompanyApiAccess, CompanyUpdatedEvent, PlanChangedEvent, PlanDeletedEvent, PlanFlags } from '@wa/contracts';
import { TicketsEnv } from '../config/env.js';
import { CompanyStandingsRepository } from './company-standings.repository.js';

/** How long a company auth could not be asked about (or did not know) is answered from memory before auth is asked again. */
const UNREACHABLE_TTL_MS = 10_000;
/** How long the check waits for auth's answer about a company it has not heard of. */
const AUTH_TIMEOUT_MS = 2_000;
/**
 * How long the bot's turn (the inbound path, every batch) reuses what it read of a company's status: an event
 * applied here forgets it at once; another replica's copy catches up within this.
 */
const TURN_TTL_MS = 5_000;

export type StandingRefusal = 'inactive' | 'not-in-plan';

/**
 * The one plan check (@wa/auth's companyActive and planRefusal) for tickets' paths that run without a request:
 * the bot's outside flows (useIntegrations) and AI prompts (useOpenAi), scheduled sends (useSchedules), webhook
 * deliveries (active only). It reads tickets' copy of the company (auth's `company.updated`: status, due date,
 * plan), of its plan (billing's `plan.updated`) and of its time zone setting, so the due date ends on the
 * company's own calendar. A company or plan no event told of yet (a sign-up, a company older than this copy) is
 * asked of auth once and kept (any later event wins). A company auth does not know is refused; when auth cannot
 * be asked, the company is let through for UNREACHABLE_TTL_MS (logged): an outage of auth must not stop every
 * company's bot, and the copy refuses it from the first answer.
 */
@Injectable()
export class CompanyStandings {
  private readonly logger = new Logger(CompanyStandings.name);
  private readonly memo = new Map<number, { until: number; refusal: (flag?: keyof PlanFlags) => StandingRefusal | null }>();
  private readonly turnMemo = new Map<number, { until: number; active: boolean }>();

  constructor(
    private readonly copy: CompanyStandingsRepository,
    private readonly env: TicketsEnv,
  ) {}

  /**
   * Why the company may not use `flag` now (or run at all, without one), or null when it may. Read from the copy
   * at every call (one lookup by key): a change applies at the next check on every replica. Only what auth
   * answered about a company missing from the copy is remembered here, UNREACHABLE_TTL_MS at most.
   */
  async refusal(companyId: number, flag?: keyof PlanFlags): Promise<StandingRefusal | null> {
    const hit = this.memo.get(companyId);
    if (hit && hit.until > Date.now()) return hit.refusal(flag);
    const { refusal, remember } = await this.read(companyId);
    if (remember) {
      this.memo.set(companyId, { until: Date.now() + UNREACHABLE_TTL_MS, refusal });
      if (this.memo.size > 10_000) for (const [id, v] of this.memo) if (v.until <= Date.now()) this.memo.delete(id);
    }
    return refusal(flag);
  }

  /**
   * The companies among `companyIds` that may not run now (disabled, or past their due date on their own
   * calendar): the bot's menu answers none of their customers. Asked at every bot turn, so what was read of a
   * company is reused TURN_TTL_MS.
   */
  async inactiveOf(companyIds: Iterable<number>): Promise<Set<number>> {
    const inactive = new Set<number>();
    const now = Date.now();
    for (const id of new Set(companyIds)) {
      let hit = this.turnMemo.get(id);
      if (!hit || hit.until <= now) {
        hit = { until: now + TURN_TTL_MS, active: (await this.refusal(id)) !== 'inactive' };
        this.turnMemo.set(id, hit);
        if (this.turnMemo.size > 10_000) for (const [k, v] of this.turnMemo) if (v.until <= now) this.turnMemo.delete(k);
      }
      if (!hit.active) inactive.add(id);
    }
    return inactive;
  }

  /** An event told of the company (or of a plan): what auth answered before is not reused. */
  forget(companyId?: number): void {
    if (companyId === undefined) {
      this.memo.clear();
      this.turnMemo.clear();
    } else {
      this.memo.delete(companyId);
      this.turnMemo.delete(companyId);
    }
  }

  /** auth's `company.updated`, unless the copy already holds a later state. */
  async applyCompany(e: CompanyUpdatedEvent): Promise<void> {
    await this.copy.keepCompany(e.companyId, {
      status: e.status,
      dueDate: e.dueDate ? e.dueDate.slice(0, 10) : null,
      planId: e.planId ?? null,
      at: e.at,
    });
    this.forget(e.companyId);
  }

  /** billing's `plan.updated`, unless the copy already holds a later state. */
  async applyPlan({ plan, at }: PlanChangedEvent): Promise<void> {
    await this.copy.keepPlan(plan.id, flagsOf(plan), at);
    this.forget();
  }

  /** billing's `plan.deleted` (only a plan no company is on). */
  async deletePlan({ planId, at }: PlanDeletedEvent): Promise<void> {
    await this.copy.deletePlan(planId, at);
    this.forget();
  }

  private async read(companyId: number): Promise<{ refusal: (flag?: keyof PlanFlags) => StandingRefusal | null; remember: boolean }> {
    let row = await this.copy.standing(companyId);
    if (row.deleted) return { refusal: () => 'inactive', remember: false };
    if (row.status === null || (row.planId !== null && row.flags === null)) {
      const asked = await this.askAuth(companyId);
      if (asked === 'unknown') return { refusal: () => 'inactive', remember: true };
      if (asked === 'unreachable') return { refusal: () => null, remember: true };
      row = await this.copy.standing(companyId);
      if (row.status === null) return { refusal: () => null, remember: true };
    }
    const standing = { active: companyActive(row.status, row.dueDate, row.zone), plan: row.flags };
    // a plan auth has no flags of either: asked again after a while, not at every check
    return { refusal: (flag) => planRefusal(standing, flag), remember: row.planId !== null && row.flags === null };
  }

  /**
   * auth's answer about a company the copy lacks (or whose plan it lacks), kept with "updatedAt" -infinity so
   * any event replaces it: 'stored', 'unknown' (auth has no such company) or 'unreachable'.
   */
  private async askAuth(companyId: number): Promise<'stored' | 'unknown' | 'unreachable'> {
    let access: CompanyApiAccess;
    try {
      const res = await fetch(`${this.env.AUTH_URL}/internal/companies/${companyId}/api-access`, {
        headers: { authorization: `Bearer ${signServiceToken('tickets', this.env.JWT_SECRET)}` },
        signal: AbortSignal.timeout(AUTH_TIMEOUT_MS),
      });
      if (res.status === 404) return 'unknown';
      if (res.status !== 200) {
        this.logger.warn({ companyId, status: res.status }, 'company standing: auth did not answer; the company is let through for now');
        return 'unreachable';
      }
      access = (await res.json()) as CompanyApiAccess;
    } catch (err) {
      this.logger.warn(
        { companyId, err: (err as Error)?.message },
        'company standing: auth not reachable; the company is let through for now',
      );
      return 'unreachable';
    }
    // an auth of the version before answers `active` only: kept as the status, with no due date
    await this.copy.keepAskedCompany(companyId, {
      status: access.status ?? access.active,
      dueDate: access.dueDate ? access.dueDate.slice(0, 10) : null,
      planId: access.planId ?? null,
    });
    if (access.plan && access.planId !== undefined) await this.copy.keepAskedPlan(access.planId, flagsOf(access.plan));
    return 'stored';
  }
}

/** The plan's flags only (a plan event carries its name, counts and price too). */
function flagsOf(plan: PlanFlags): PlanFlags {
  const { useCampaigns, useKanban, useOpenAi, useIntegrations, useSchedules, useInternalChat, useExternalApi } = plan;
  return { useCampaigns, useKanban, useOpenAi, useIntegrations, useSchedules, useInternalChat, useExternalApi };
}

/** The reason a refused background task records (a schedule's ERRO, a webhook delivery's error). */
export function refusalText(refusal: StandingRefusal, flag?: keyof PlanFlags): string {
  return refusal === 'inactive'
    ? 'the company is disabled or its subscription has expired'
    : `the company's plan does not include this feature (${flag})`;
}
