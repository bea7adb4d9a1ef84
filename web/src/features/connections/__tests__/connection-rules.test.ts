import { describe, expect, it } from '@jest/globals';
import type { WhatsappDto } from '@wa/contracts';
import { sessionButtons } from '../connection-rules';
import { validateConnectionName } from '../../../components/form-rules';
import { upsertConnection } from '../connections.api';

describe('connection rules', () => {
  it('offers the buttons of spec 01 §4 "Connection status"', () => {
    expect(sessionButtons('qrcode')).toEqual(['qrcode']);
    expect(sessionButtons('DISCONNECTED')).toEqual(['tryAgain', 'newQr']);
    expect(sessionButtons('CONNECTED')).toEqual(['disconnect']);
    expect(sessionButtons('PAIRING')).toEqual(['disconnect']);
    expect(sessionButtons('TIMEOUT')).toEqual(['disconnect']);
    expect(sessionButtons('OPENING')).toEqual(['connecting']);
  });

  it('requires a name of 2 to 50 characters', () => {
    expect(validateConnectionName('  ')).toBe('required');
    expect(validateConnectionName('a')).toBe('tooShort');
    expect(validateConnectionName('ab')).toBeNull();
    expect(validateConnectionName('x'.repeat(50))).toBeNull();
    expect(validateConnectionName('x'.repeat(51))).toBe('tooLong');
  });

  it('keeps one default connection in the list', () => {
    const list = [
      { id: 1, isDefault: true },
      { id: 2, isDefault: false },
    ] as WhatsappDto[];
    const next = upsertConnection(list, { id: 2, isDefault: true } as WhatsappDto);
    expect(next.map((w) => [w.id, w.isDefault])).toEqual([
      [1, false],
      [2, true],
    ]);
  });
});
