import { describe, expect, it } from '@jest/globals';
import type { UserDto } from '@wa/contracts';
import {
  addVariable,
  campaignEditability,
  campaignsShown,
  EDIT_LOCK_MS,
  fromLocalInput,
  parseCampaignSettings,
  parseKeywords,
  reportProgress,
  toLocalInput,
  variableHints,
} from '../campaign-rules';

const now = Date.parse('2026-11-28T12:00:00.000Z');
const at = (ms: number) => new Date(now + ms).toISOString();

describe('campaign editability (spec 02 §4)', () => {
  it('a new campaign and an INATIVA one are editable in full', () => {
    expect(campaignEditability(null, now)).toEqual({ all: true, messages: true });
    expect(campaignEditability({ status: 'INATIVA', scheduledAt: null }, now)).toEqual({ all: true, messages: true });
  });

  it('a PROGRAMADA one only while its time is more than an hour away', () => {
    expect(campaignEditability({ status: 'PROGRAMADA', scheduledAt: at(EDIT_LOCK_MS + 60_000) }, now)).toEqual({
      all: true,
      messages: true,
    });
    expect(campaignEditability({ status: 'PROGRAMADA', scheduledAt: at(EDIT_LOCK_MS) }, now)).toEqual({ all: false, messages: false });
    expect(campaignEditability({ status: 'PROGRAMADA', scheduledAt: at(10 * 60_000) }, now)).toEqual({ all: false, messages: false });
    expect(campaignEditability({ status: 'PROGRAMADA', scheduledAt: null }, now)).toEqual({ all: false, messages: false });
  });

  it('a running or finished one is read-only; a cancelled one keeps its messages editable', () => {
    expect(campaignEditability({ status: 'EM_ANDAMENTO', scheduledAt: at(-60_000) }, now)).toEqual({ all: false, messages: false });
    expect(campaignEditability({ status: 'FINALIZADA', scheduledAt: at(-60_000) }, now)).toEqual({ all: false, messages: false });
    expect(campaignEditability({ status: 'CANCELADA', scheduledAt: at(5 * EDIT_LOCK_MS) }, now)).toEqual({ all: false, messages: true });
  });
});

describe('campaign variables (spec 02 §5)', () => {
  it('adds a new shortcut, trimmed, and not one already present or blank', () => {
    const one = addVariable([], { key: ' cupom ', value: 'BLACK10' });
    expect(one).toEqual([{ key: 'cupom', value: 'BLACK10' }]);
    expect(addVariable(one, { key: 'cupom', value: 'other' })).toBe(one);
    expect(addVariable(one, { key: '  ', value: 'x' })).toBe(one);
    expect(addVariable(one, { key: 'loja', value: 'Centro' })).toEqual([
      { key: 'cupom', value: 'BLACK10' },
      { key: 'loja', value: 'Centro' },
    ]);
  });

  it('the hint lists {nome}, {numero}, {email} and then the company variables', () => {
    expect(variableHints([{ key: 'cupom', value: 'X' }])).toEqual(['{nome}', '{numero}', '{email}', '{cupom}']);
  });
});

describe('campaign report progress', () => {
  it('is delivered out of valid, whole, within 0..100', () => {
    expect(reportProgress(undefined)).toBe(0);
    expect(reportProgress({ valid: 0, delivered: 0 })).toBe(0);
    expect(reportProgress({ valid: 3, delivered: 1 })).toBe(33);
    expect(reportProgress({ valid: 3, delivered: 2 })).toBe(67);
    expect(reportProgress({ valid: 2, delivered: 5 })).toBe(100);
  });
});

describe('campaign settings (spec 02 §9)', () => {
  it('reads the JSON values and keeps the defaults 20, 20, 60 for what is missing or unreadable', () => {
    expect(parseCampaignSettings(undefined)).toEqual({ messageInterval: 20, longerIntervalAfter: 20, greaterInterval: 60, variables: [] });
    expect(
      parseCampaignSettings([
        { key: 'messageInterval', value: '5' },
        { key: 'greaterInterval', value: 'not json' },
        { key: 'variables', value: JSON.stringify([{ key: 'cupom', value: 'X' }, 7]) },
      ]),
    ).toEqual({ messageInterval: 5, longerIntervalAfter: 20, greaterInterval: 60, variables: [{ key: 'cupom', value: 'X' }] });
  });
});

describe('the cshow rule (issue 40 item 12)', () => {
  const user = (useCampaigns: boolean, settings: Array<{ key: string; value: string }>) =>
    ({ company: { plan: { useCampaigns }, settings } }) as unknown as UserDto;
  it('needs the plan flag and the campaignsEnabled setting not off', () => {
    expect(campaignsShown(user(true, [{ key: 'campaignsEnabled', value: 'true' }]))).toBe(true);
    expect(campaignsShown(user(true, []))).toBe(true);
    expect(campaignsShown(user(true, [{ key: 'campaignsEnabled', value: 'false' }]))).toBe(false);
    expect(campaignsShown(user(false, [{ key: 'campaignsEnabled', value: 'true' }]))).toBe(false);
    expect(campaignsShown(null)).toBe(false);
  });
});

describe('the schedule field', () => {
  it('goes from ISO to the local input and back to the same instant', () => {
    const iso = '2026-12-01T15:30:00.000Z';
    expect(fromLocalInput(toLocalInput(iso))).toBe(iso);
    expect(toLocalInput(null)).toBe('');
    expect(fromLocalInput('')).toBeNull();
  });
});

describe('opt-out words', () => {
  it('are read from the settings when the company keeps its own, and typed comma- or line-separated', () => {
    expect(parseCampaignSettings([{ key: 'optOutKeywords', value: '["SAIR","PARE"]' }]).optOutKeywords).toEqual(['SAIR', 'PARE']);
    expect(parseCampaignSettings([]).optOutKeywords).toBeUndefined();
    expect(parseKeywords(' sair, Pare\nsair ,, ')).toEqual(['SAIR', 'PARE']);
  });
});
