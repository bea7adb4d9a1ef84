import { describe, expect, it } from '@jest/globals';
import { missedCallLine, rejectsCalls } from './missed-calls.js';

describe('missed calls', () => {
  it("writes the call's time on the company's clock, 24 h with two digits", () => {
    const at = new Date('2026-11-29T12:05:00Z');
    expect(missedCallLine(at, 'America/Sao_Paulo')).toBe('Chamada de voz/vídeo perdida às 09:05');
    expect(missedCallLine(at, 'Asia/Tokyo')).toBe('Chamada de voz/vídeo perdida às 21:05');
    expect(missedCallLine(new Date('2026-11-29T03:00:00Z'), 'America/Sao_Paulo')).toBe('Chamada de voz/vídeo perdida às 00:00');
  });

  it("rejects calls only when the company's setting is 'disabled'", () => {
    expect(rejectsCalls('disabled')).toBe(true);
    expect(rejectsCalls('enabled')).toBe(false);
    expect(rejectsCalls(undefined)).toBe(false);
  });
});
