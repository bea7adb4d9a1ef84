import type { PlanFlags } from '@wa/contracts';
import { DomainError } from '@wa/server-kit';
import { companyTimeZone, todayIn } from '@wa/domain';

/**
 * The one plan check (spec 02 §6, §8), for the gateway's routes and for every path that runs without a
 * request (the bot's AI prompts and outside flows, webhooks, scheduled sends): a company may use a feature
 * while it is active — not disabled, its due date not over on its own calendar — and its plan has the flag.
 */

/** The plan gate's text (spec 02 §8: a plan-gated page without permission). */
export const NO_PLAN_PERMISSION = 'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.';

/** Not disabled and not past its due date (YYYY-MM-DD, the last day it may work) in its time zone (its `timezone` setting). */
export function companyActive(
  status: boolean,
  dueDate: string | null | undefined,
  timeZoneSetting?: string | null,
  now: Date = new Date(),
): boolean {
  if (!status) return false;
  if (!dueDate) return true;
  return dueDate.slice(0, 10) >= todayIn(companyTimeZone(timeZoneSetting), now);
}

export interface CompanyStanding {
  /** companyActive's answer */
  active: boolean;
  /** the plan's flags; none when the company has no plan */
  plan?: PlanFlags | null;
}

/** Why the company may not use `flag` now (or anything, without a flag), or null when it may. */
export function planRefusal(company: CompanyStanding, flag?: keyof PlanFlags): 'inactive' | 'not-in-plan' | null {
  if (!company.active) return 'inactive';
  if (flag && !company.plan?.[flag]) return 'not-in-plan';
  return null;
}

/** 403 ERR_NO_PERMISSION with the spec's text when planRefusal refuses. */
export function assertPlanAllows(company: CompanyStanding, flag?: keyof PlanFlags): void {
  const refused = planRefusal(company, flag);
  if (refused) throw new DomainError('ERR_NO_PERMISSION', { flag, reason: refused }, NO_PLAN_PERMISSION);
}
