import type { PlanFlags } from '@wa/contracts';

/** A feature a company's plan may or may not have (spec 02 §3 "Plan"). */
export type PlanFlag = keyof PlanFlags;

type WithPlan = { company?: { plan?: Partial<PlanFlags> | null } | null } | null | undefined;

/** Whether the signed-in user's company plan has the feature (spec 02 §6: plan-gated pages and menu items). */
export const hasPlanFlag = (user: WithPlan, flag: PlanFlag): boolean => !!user?.company?.plan?.[flag];

/**
 * Whether a plan-gated page may open: yes as soon as the user's plan has the feature; a "no" is only final
 * once the user is known to be current (`settled`: loaded from the server in this page, or its reload
 * failed), so a plan just upgraded is not turned away on the user as last stored. Null: not known yet.
 */
export function planAccess(user: WithPlan, flag: PlanFlag, settled: boolean): boolean | null {
  if (hasPlanFlag(user, flag)) return true;
  return settled ? false : null;
}

/** spec 01 §6: schedules are a plan feature (the menu item and the schedule actions follow the plan's flag). */
export const canSchedule = (user: { company?: { plan?: { useSchedules?: boolean } | null } | null } | null | undefined): boolean =>
  !!user?.company?.plan?.useSchedules;

/** The `cshow` rule (issue 40, item 12): the company's plan has campaigns and its `campaignsEnabled` setting is not off. */
export function campaignsShown(
  user:
    { company?: { plan?: Partial<PlanFlags> | null; settings?: Array<{ key: string; value: string }> | null } | null } | null | undefined,
): boolean {
  const company = user?.company;
  if (!company?.plan?.useCampaigns) return false;
  return company.settings?.find((s) => s.key === 'campaignsEnabled')?.value !== 'false';
}
