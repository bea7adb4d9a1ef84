import { describe, expect, it } from '@jest/globals';
import { hasPlanFlag, planAccess } from '../plan-flags';

const userWith = (plan: Record<string, boolean> | null) => ({ company: { plan } });

describe('plan-gated pages (spec 02 §6)', () => {
  it("reads the flag from the user's company plan", () => {
    expect(hasPlanFlag(userWith({ useOpenAi: true }), 'useOpenAi')).toBe(true);
    expect(hasPlanFlag(userWith({ useOpenAi: true }), 'useIntegrations')).toBe(false);
    expect(hasPlanFlag(userWith({ useIntegrations: false }), 'useIntegrations')).toBe(false);
    expect(hasPlanFlag(userWith(null), 'useExternalApi')).toBe(false);
    expect(hasPlanFlag({ company: null }, 'useOpenAi')).toBe(false);
    expect(hasPlanFlag(null, 'useOpenAi')).toBe(false);
  });

  it('a yes opens at once; a no is final only once the user is current, before that it is not known', () => {
    expect(planAccess(userWith({ useOpenAi: true }), 'useOpenAi', false)).toBe(true);
    expect(planAccess(userWith({ useOpenAi: false }), 'useOpenAi', false)).toBeNull();
    expect(planAccess(userWith({ useOpenAi: false }), 'useOpenAi', true)).toBe(false);
    expect(planAccess(null, 'useIntegrations', true)).toBe(false);
  });
});
