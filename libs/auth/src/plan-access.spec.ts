import { describe, expect, it } from '@jest/globals';
import type { PlanFlags } from '@wa/contracts';
import { assertPlanAllows, companyActive, planRefusal } from './plan-access.js';

const plan = (over: Partial<PlanFlags> = {}): PlanFlags => ({
  useCampaigns: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
  ...over,
});

describe('the one plan check', () => {
  it('a company is active until the end of its due date on its own clock, and never while disabled', () => {
    // 02:00 UTC on the 11th is still the 10th in São Paulo
    const at = new Date('2026-03-11T02:00:00Z');
    expect(companyActive(true, '2026-03-10', 'America/Sao_Paulo', at)).toBe(true);
    expect(companyActive(true, '2026-03-10', 'UTC', at)).toBe(false);
    expect(companyActive(true, '2026-03-10T00:00:00.000Z', undefined, at)).toBe(true);
    expect(companyActive(false, '2030-01-01', undefined, at)).toBe(false);
  });

  it('refuses an inactive company anything, and a feature its plan lacks', () => {
    expect(planRefusal({ active: false, plan: plan() }, 'useOpenAi')).toBe('inactive');
    expect(planRefusal({ active: false, plan: plan() })).toBe('inactive');
    expect(planRefusal({ active: true, plan: plan({ useOpenAi: false }) }, 'useOpenAi')).toBe('not-in-plan');
    expect(planRefusal({ active: true, plan: null }, 'useKanban')).toBe('not-in-plan');
    expect(planRefusal({ active: true, plan: plan() }, 'useKanban')).toBeNull();
    expect(() => assertPlanAllows({ active: true, plan: plan({ useKanban: false }) }, 'useKanban')).toThrow(
      expect.objectContaining({ code: 'ERR_NO_PERMISSION' }),
    );
  });
});
