import { Injectable, Logger } from '@nestjs/common';
import { planRefusal, signServiceToken } from '@wa/auth';
import type { CompanyApiAccess, PlanFlags } from '@wa/contracts';
import { companyTimeZone } from '@wa/domain';
import { CampaignsEnv } from '../config/env.js';

const AUTH_TIMEOUT_MS = 2_000;

export interface Standing {
  /** null: may run campaigns now; otherwise why not */
  refusal: 'inactive' | 'not-in-plan' | null;
  /** the company's IANA time zone */
  timeZone: string;
}

/**
 * The plan gate of what campaigns does without a request (starting, pacing): the company is active and its plan
 * has useCampaigns (@wa/auth's planRefusal, the one plan check), asked of auth and reused COMPANY_STANDING_TTL_MS, so a
 * plan that loses campaigns stops the sends within that. When auth cannot be asked, the last answer stands;
 * with none, the company waits (nothing is sent on a guess).
 */
@Injectable()
export class CompanyStanding {
  private readonly logger = new Logger(CompanyStanding.name);
  private readonly memo = new Map<number, { until: number; standing: Standing }>();

  constructor(private readonly env: CampaignsEnv) {}

  async of(companyId: number, flag: keyof PlanFlags = 'useCampaigns'): Promise<Standing | null> {
    const hit = this.memo.get(companyId);
    if (hit && hit.until > Date.now()) return hit.standing;
    const access = await this.ask(companyId);
    if (access === 'unreachable') return hit?.standing ?? null;
    const standing: Standing =
      access === 'unknown'
        ? { refusal: 'inactive', timeZone: companyTimeZone(null) }
        : { refusal: planRefusal({ active: access.active, plan: access.plan ?? null }, flag), timeZone: companyTimeZone(access.timeZone) };
    this.memo.set(companyId, { until: Date.now() + this.env.COMPANY_STANDING_TTL_MS, standing });
    return standing;
  }

  /** Forget what was read (tests; a plan change heard of). */
  forget(companyId?: number): void {
    if (companyId === undefined) this.memo.clear();
    else this.memo.delete(companyId);
  }

  private async ask(companyId: number): Promise<CompanyApiAccess | 'unknown' | 'unreachable'> {
    try {
      const res = await fetch(`${this.env.AUTH_URL}/internal/companies/${companyId}/api-access`, {
        headers: { authorization: `Bearer ${signServiceToken('campaigns', this.env.JWT_SECRET)}` },
        signal: AbortSignal.timeout(AUTH_TIMEOUT_MS),
      });
      if (res.status === 404) return 'unknown';
      if (res.status !== 200) throw new Error(`auth answered ${res.status}`);
      return (await res.json()) as CompanyApiAccess;
    } catch (err) {
      this.logger.warn({ companyId, err: (err as Error)?.message }, 'company standing: auth not reachable; its campaigns wait');
      return 'unreachable';
    }
  }
}
