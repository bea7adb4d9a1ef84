import { describe, expect, it } from '@jest/globals';
import type { CompanyDto } from '@wa/contracts';
import { companyToday } from '../../../app/expiry';
import {
  addMonthsToDay,
  campaignsEnabledOf,
  changedCompanyFields,
  companyDue,
  companyFormOf,
  companyPayload,
  dueStateOf,
  dueToneOf,
  isCompanySaveRefusal,
  isIsoDay,
  recurrenceChoices,
  renewedDueDate,
  validateCompanyForm,
} from '../company-rules';

const saved: CompanyDto = {
  id: 3,
  name: 'Loja',
  email: 'loja@x.com',
  phone: null,
  dueDate: '2026-03-10',
  status: true,
  planId: 1,
  recurrence: 'MENSAL',
  createdAt: '2026-01-02T12:00:00.000Z',
  plan: { id: 1, name: 'Básico' } as CompanyDto['plan'],
  settings: [{ key: 'campaignsEnabled', value: 'false' }],
};

describe('company rules: renewal (spec 02 §4 "Renew adds the recurrence in months")', () => {
  it('adds months keeping the day, or the last day of a shorter month', () => {
    expect(addMonthsToDay('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonthsToDay('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonthsToDay('2026-03-31', 1)).toBe('2026-04-30');
    expect(addMonthsToDay('2026-08-31', 6)).toBe('2027-02-28');
    expect(addMonthsToDay('2026-11-15', 2)).toBe('2027-01-15');
    expect(addMonthsToDay('2026-12-31', 12)).toBe('2027-12-31');
    expect(addMonthsToDay('2028-02-29', 12)).toBe('2029-02-28');
  });

  it('moves a due date not yet passed on by 1, 2, 3, 6 or 12 months', () => {
    const today = '2026-01-20';
    expect(renewedDueDate('2026-01-31', 'MENSAL', today)).toBe('2026-02-28');
    expect(renewedDueDate('2026-01-31', 'BIMESTRAL', today)).toBe('2026-03-31');
    expect(renewedDueDate('2026-01-31', 'TRIMESTRAL', today)).toBe('2026-04-30');
    expect(renewedDueDate('2026-01-31', 'SEMESTRAL', today)).toBe('2026-07-31');
    expect(renewedDueDate('2026-01-31', 'ANUAL', today)).toBe('2027-01-31');
    // due today is not past: from the due date
    expect(renewedDueDate('2026-01-20', 'MENSAL', today)).toBe('2026-02-20');
  });

  it('an overdue (or missing) due date renews from today; an unknown recurrence counts as MENSAL', () => {
    expect(renewedDueDate('2025-12-01', 'MENSAL', '2026-01-31')).toBe('2026-02-28');
    expect(renewedDueDate('2026-01-19', 'TRIMESTRAL', '2026-01-20')).toBe('2026-04-20');
    expect(renewedDueDate(undefined, 'ANUAL', '2026-05-05')).toBe('2027-05-05');
    expect(renewedDueDate('2026-02-10', 'SEMANAL', '2026-01-20')).toBe('2026-03-10');
    expect(renewedDueDate('2026-02-10', undefined, '2026-01-20')).toBe('2026-03-10');
  });

  it("today is the company's calendar day (São Paulo unless its timezone setting says otherwise)", () => {
    const at = new Date('2026-03-01T02:00:00.000Z'); // 23:00 on Feb 28 in São Paulo
    expect(companyToday({ settings: [] }, at)).toBe('2026-02-28');
    expect(companyToday({ settings: [{ key: 'timezone', value: 'UTC' }] }, at)).toBe('2026-03-01');
  });

  it('offers MENSAL only (spec 02 §4), plus the company’s own recurrence when it is another', () => {
    expect(recurrenceChoices(undefined)).toEqual(['MENSAL']);
    expect(recurrenceChoices('MENSAL')).toEqual(['MENSAL']);
    expect(recurrenceChoices('ANUAL')).toEqual(['MENSAL', 'ANUAL']);
    expect(recurrenceChoices('whatever')).toEqual(['MENSAL']);
  });
});

describe('company rules: due-date highlight (spec 02 §4)', () => {
  it('5 days ahead yellow, 3 days overdue to 4 days ahead orange, exactly 4 days overdue red, else none', () => {
    expect(dueToneOf(6)).toBeNull();
    expect(dueToneOf(5)).toBe('yellow');
    expect(dueToneOf(4)).toBe('orange');
    expect(dueToneOf(0)).toBe('orange');
    expect(dueToneOf(-3)).toBe('orange');
    expect(dueToneOf(-4)).toBe('red');
    expect(dueToneOf(-5)).toBeNull();
    expect(dueToneOf(null)).toBeNull();
  });

  it('the state: past once overdue, soon up to 5 days ahead, ok otherwise', () => {
    expect(dueStateOf(-1)).toBe('past');
    expect(dueStateOf(-30)).toBe('past');
    expect(dueStateOf(0)).toBe('soon');
    expect(dueStateOf(5)).toBe('soon');
    expect(dueStateOf(6)).toBe('ok');
    expect(dueStateOf(null)).toBe('ok');
  });

  it('counts calendar days on the company’s calendar', () => {
    const now = new Date('2026-03-10T15:00:00.000Z'); // 12:00 in São Paulo
    expect(companyDue({ dueDate: '2026-03-06', settings: [] }, now)).toEqual({ days: -4, state: 'past', tone: 'red' });
    expect(companyDue({ dueDate: '2026-03-15', settings: [] }, now)).toEqual({ days: 5, state: 'soon', tone: 'yellow' });
    expect(companyDue({ dueDate: '2026-04-15', settings: [] }, now)).toEqual({ days: 36, state: 'ok', tone: null });
  });
});

describe('company rules: the form (spec 02 §5 "email required, plan required")', () => {
  const valid = { ...companyFormOf(null), name: 'Loja', email: 'a@b.com', planId: 1 as const };

  it('a new company: email, plan and name required; bad values flagged', () => {
    expect(validateCompanyForm(companyFormOf(null), true)).toEqual({ name: 'required', email: 'required', planId: 'required' });
    expect(validateCompanyForm(valid, true)).toEqual({});
    expect(validateCompanyForm({ ...valid, name: 'L', email: 'a@b', password: '1234', dueDate: '2026-02-30' }, true)).toEqual({
      name: 'tooShort',
      email: 'email',
      password: 'tooShort',
      dueDate: 'date',
    });
    // an edit needs a due date and never checks a password
    expect(validateCompanyForm({ ...valid, password: '1' }, false)).toEqual({ dueDate: 'required' });
  });

  it('checks real calendar days', () => {
    expect(isIsoDay('2028-02-29')).toBe(true);
    expect(isIsoDay('2026-02-29')).toBe(false);
    expect(isIsoDay('2026-13-01')).toBe(false);
    expect(isIsoDay('01/02/2026')).toBe(false);
  });

  it('a new company is sent with the plan as a number and booleans; blanks left out', () => {
    expect(companyPayload({ ...valid, name: ' Loja ', email: ' a@b.com ', phone: ' ', campaignsEnabled: false }, true)).toEqual({
      name: 'Loja',
      email: 'a@b.com',
      planId: 1,
      status: true,
      recurrence: 'MENSAL',
      campaignsEnabled: false,
    });
    expect(companyPayload({ ...valid, phone: '5511', dueDate: '2026-05-01', password: 'secret' }, true)).toMatchObject({
      phone: '5511',
      dueDate: '2026-05-01',
      password: 'secret',
    });
  });

  it('reads a saved company (campaigns from its setting) and an edit sends only what changed', () => {
    const form = companyFormOf(saved);
    expect(form).toMatchObject({
      name: 'Loja',
      email: 'loja@x.com',
      phone: '',
      planId: 1,
      status: true,
      campaignsEnabled: false,
      dueDate: '2026-03-10',
      recurrence: 'MENSAL',
    });
    expect(changedCompanyFields(saved, companyPayload(form, false))).toEqual({});
    expect(
      changedCompanyFields(saved, companyPayload({ ...form, planId: 2, status: false, campaignsEnabled: true, phone: '55' }, false)),
    ).toEqual({
      planId: 2,
      status: false,
      campaignsEnabled: true,
      phone: '55',
    });
  });

  it('campaigns are on unless the setting says false', () => {
    expect(campaignsEnabledOf({ settings: [{ key: 'campaignsEnabled', value: 'true' }] })).toBe(true);
    expect(campaignsEnabledOf({ settings: [{ key: 'campaignsEnabled', value: 'false' }] })).toBe(false);
    expect(campaignsEnabledOf({ settings: [] })).toBe(true);
  });

  it('a taken name, a user’s email or refused fields are a refusal; no network is not', () => {
    expect(isCompanySaveRefusal({ status: 400, data: { error: 'ERR_VALIDATION' } })).toBe(true);
    expect(isCompanySaveRefusal({ status: 409, data: { error: 'ERR_EMAIL_ALREADY_EXISTS' } })).toBe(true);
    expect(isCompanySaveRefusal({ status: 'FETCH_ERROR', error: 'x' })).toBe(false);
    expect(isCompanySaveRefusal({ status: 403, data: { error: 'ERR_NO_PERMISSION' } })).toBe(false);
  });
});
