import type { CompanyApiAccess, PlanLimitResource, PlanLimits } from '@wa/contracts';
import { DomainError } from '@wa/server-kit';
import { Logger } from '@nestjs/common';
import { signServiceToken } from './service-tokens.js';

/** How long a create waits for auth's answer before it goes on unchecked. */
const LIMITS_TIMEOUT_MS = 2000;

/**
 * The plan's counts (spec 02 "Plan": users, connections, queues; 0 is no limit), enforced where each is
 * created: the one rule, `assertPlanRoom`, for every service; the counts asked of auth (which keeps the
 * companies and its copy of billing's plans) at the moment of the create, so a plan change applies on the
 * next one.
 */
export class PlanLimitsClient {
  private readonly logger = new Logger(PlanLimitsClient.name);

  constructor(
    private readonly authUrl: string,
    private readonly secret: string,
    private readonly service: string,
  ) {}

  /**
   * The company's plan counts, or null when it has none, or when auth cannot tell now: the counts are a
   * commercial limit, not a safety one, so creating a queue or a connection does not wait for auth to come
   * back (the miss is logged).
   */
  async of(companyId: number): Promise<PlanLimits | null> {
    try {
      const res = await fetch(`${this.authUrl}/internal/companies/${companyId}/api-access`, {
        headers: { authorization: `Bearer ${signServiceToken(this.service, this.secret)}` },
        signal: AbortSignal.timeout(LIMITS_TIMEOUT_MS),
      });
      if (res.status === 200) return ((await res.json()) as CompanyApiAccess).limits ?? null;
      if (res.status !== 404)
        this.logger.warn({ companyId, status: res.status }, 'plan limits: auth did not answer; the create goes on unchecked');
      return null;
    } catch (err) {
      this.logger.warn({ companyId, err: (err as Error)?.message }, 'plan limits: auth not reachable; the create goes on unchecked');
      return null;
    }
  }

  /** Refuses one more `resource` for the company when it already has `current` and its plan allows no more. */
  async assertRoom(companyId: number, resource: PlanLimitResource, current: number): Promise<void> {
    assertPlanRoom(await this.of(companyId), resource, current);
  }
}

/** 403 ERR_PLAN_LIMIT_REACHED (with the resource and the limit) when `current` already fills the plan's count. */
export function assertPlanRoom(limits: PlanLimits | null | undefined, resource: PlanLimitResource, current: number): void {
  const limit = limits?.[resource] ?? 0;
  if (limit > 0 && current >= limit) throw new DomainError('ERR_PLAN_LIMIT_REACHED', { resource, limit });
}
