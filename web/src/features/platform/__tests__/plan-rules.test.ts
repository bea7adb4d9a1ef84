import { describe, expect, it } from '@jest/globals';
import type { PublicPlanDto } from '@wa/contracts';
import {
  changedPlanFields,
  isPlanSaveRefusal,
  parsePrice,
  parseWholeNumber,
  planFormOf,
  planPayload,
  validatePlanForm,
} from '../plan-rules';

const saved: PublicPlanDto = {
  id: 1,
  name: 'Básico',
  users: 3,
  connections: 2,
  queues: 0,
  value: 49.9,
  useCampaigns: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
  useKanban: true,
  useOpenAi: false,
  useIntegrations: false,
  isPublic: true,
  trialDays: 7,
};

describe('plan rules (spec 02 "Plan", §9)', () => {
  it('reads whole numbers ≥ 0 and prices with at most 2 decimals (comma or point)', () => {
    expect(parseWholeNumber('12')).toBe(12);
    expect(parseWholeNumber('-1')).toBeNaN();
    expect(parseWholeNumber('1.5')).toBeNaN();
    expect(parseWholeNumber('')).toBeNaN();
    expect(parsePrice('49,90')).toBe(49.9);
    expect(parsePrice('49.9')).toBe(49.9);
    expect(parsePrice('0')).toBe(0);
    expect(parsePrice('10,999')).toBeNaN();
    expect(parsePrice('-5')).toBeNaN();
  });

  it('a new plan: 0 counts, price 0, every feature on; a valid form has no errors', () => {
    const form = planFormOf(null);
    expect(validatePlanForm(form)).toEqual({ name: 'required' });
    expect(planPayload({ ...form, name: ' X ' })).toEqual({
      name: 'X',
      users: 0,
      connections: 0,
      queues: 0,
      value: 0,
      useCampaigns: true,
      useSchedules: true,
      useInternalChat: true,
      useExternalApi: true,
      useKanban: true,
      useOpenAi: true,
      useIntegrations: true,
      isPublic: true,
      trialDays: 7,
    });
  });

  it('flags each wrong field', () => {
    const form = { ...planFormOf(null), name: 'x'.repeat(101), users: '-1', queues: '100001', value: '1,234', trialDays: '400' };
    expect(validatePlanForm(form)).toEqual({ name: 'tooLong', users: 'wholeNumber', queues: 'max', value: 'price', trialDays: 'max' });
  });

  it('an edit sends only what changed', () => {
    const form = planFormOf(saved);
    expect(form.value).toBe('49.90');
    expect(changedPlanFields(saved, planPayload(form))).toEqual({});
    expect(changedPlanFields(saved, planPayload({ ...form, users: '4', value: '49,9', useOpenAi: true }))).toEqual({
      users: 4,
      useOpenAi: true,
    });
  });

  it('a taken name or refused fields are a refusal; no network is not', () => {
    expect(isPlanSaveRefusal({ status: 409, data: { error: 'ERR_PLAN_NAME_EXISTS' } })).toBe(true);
    expect(isPlanSaveRefusal({ status: 400, data: { error: 'ERR_VALIDATION' } })).toBe(true);
    expect(isPlanSaveRefusal({ status: 'FETCH_ERROR', error: 'x' })).toBe(false);
    expect(isPlanSaveRefusal({ status: 403, data: { error: 'ERR_NO_PERMISSION' } })).toBe(false);
  });
});
