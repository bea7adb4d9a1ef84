import { describe, expect, it } from '@jest/globals';
import {
  integrationGroups,
  isMasked,
  isSecretSetting,
  scheduleTypeOf,
  selectableSettings,
  settingValue,
  withSetting,
} from '../settings-rules';

const server = [
  { key: 'asaas', value: '' },
  { key: 'call', value: 'enabled' },
  { key: 'chatBotType', value: 'text' },
  { key: 'scheduleType', value: 'queue' },
  { key: 'timezone', value: 'America/Sao_Paulo' },
  { key: 'userRating', value: 'disabled' },
];

describe('settings (spec 02 §2 "Settings", §3, §9)', () => {
  it("offers a selector for each known key the server returned, in the tab's order", () => {
    const shown = selectableSettings(server);
    expect(shown.map((s) => s.key)).toEqual(['userRating', 'scheduleType', 'call', 'chatBotType']);
    expect(shown[1]).toEqual({ key: 'scheduleType', value: 'queue', values: ['disabled', 'queue', 'company'] });
    expect(shown[3]).toEqual({ key: 'chatBotType', value: 'text', values: ['text'] });
    expect(selectableSettings(undefined)).toEqual([]);
  });

  it("offers the platform's userCreation to super users only", () => {
    const withPlatform = [...server, { key: 'userCreation', value: 'disabled' }];
    expect(selectableSettings(withPlatform).map((s) => s.key)).not.toContain('userCreation');
    expect(selectableSettings(withPlatform, { isSuper: true }).at(-1)).toEqual({
      key: 'userCreation',
      value: 'disabled',
      values: ['enabled', 'disabled'],
    });
  });

  it('keeps a stored value it does not know among the choices', () => {
    expect(selectableSettings([{ key: 'userRating', value: 'maybe' }])[0]?.values).toEqual(['maybe', 'disabled', 'enabled']);
  });

  it('reads scheduleType: queue, company, or disabled for anything else', () => {
    expect(scheduleTypeOf(server)).toBe('queue');
    expect(scheduleTypeOf([{ key: 'scheduleType', value: 'company' }])).toBe('company');
    expect(scheduleTypeOf([{ key: 'scheduleType', value: 'other' }])).toBe('disabled');
    expect(scheduleTypeOf([])).toBe('disabled');
    expect(scheduleTypeOf(undefined)).toBe('disabled');
    expect(settingValue(server, 'timezone')).toBe('America/Sao_Paulo');
    expect(settingValue(server, 'nope')).toBeUndefined();
  });

  it('a saved value changes only its own key in the cached list', () => {
    const next = withSetting(server, 'scheduleType', 'company');
    expect(settingValue(next, 'scheduleType')).toBe('company');
    expect(next.filter((s, i) => s !== server[i]).map((s) => s.key)).toEqual(['scheduleType']);
    expect(settingValue(server, 'scheduleType')).toBe('queue');
  });

  it('offers the integration fields the server returned, in their groups; a group without any goes', () => {
    const groups = integrationGroups([
      ...server,
      { key: 'ipixc', value: '10.0.0.1' },
      { key: 'tokenixc', value: '••••6789' },
      { key: 'clientidmkauth', value: 'abc' },
    ]);
    expect(groups).toEqual([
      {
        id: 'ixc',
        fields: [
          { key: 'ipixc', value: '10.0.0.1', secret: false },
          { key: 'tokenixc', value: '••••6789', secret: true },
        ],
      },
      { id: 'mkauth', fields: [{ key: 'clientidmkauth', value: 'abc', secret: false }] },
      { id: 'asaas', fields: [{ key: 'asaas', value: '', secret: true }] },
    ]);
    expect(integrationGroups([{ key: 'call', value: 'enabled' }])).toEqual([]);
    expect(integrationGroups(undefined)).toEqual([]);
  });

  it('knows the secret keys and the mask the server shows them with', () => {
    expect(['tokenixc', 'clientsecretmkauth', 'asaas'].every(isSecretSetting)).toBe(true);
    expect(['ipixc', 'ipmkauth', 'clientidmkauth', 'call'].some(isSecretSetting)).toBe(false);
    expect(isMasked('••••6789')).toBe(true);
    expect(isMasked('6789')).toBe(false);
    expect(isMasked('')).toBe(false);
  });
});
