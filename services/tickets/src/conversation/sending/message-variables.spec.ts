import { describe, expect, it } from '@jest/globals';
import { fillVariables } from './message-variables.js';

// 2026-11-24 13:05:09 in São Paulo (UTC-3)
const now = new Date('2026-11-24T16:05:09Z');
const ctx = { contactName: ' Maria  da Silva ', ticketId: 42, timeZone: 'America/Sao_Paulo', now };

describe('message variables (quick replies, filled on send)', () => {
  it('fills the contact, the greeting of the hour, the protocol and the time on the company clocks', () => {
    expect(fillVariables('{{ms}} {{firstName}}! Protocolo {{protocol}} às {{hora}}. ({{ name }})', ctx)).toBe(
      'Boa Tarde! Maria! Protocolo 2026112413050942 às 13:05:09. (Maria  da Silva)',
    );
    expect(fillVariables('{{ms}}', { ...ctx, now: new Date('2026-11-24T10:00:00Z') })).toBe('Bom dia!');
    expect(fillVariables('{{ms}}', { ...ctx, now: new Date('2026-11-24T23:30:00Z') })).toBe('Boa Noite!');
    expect(fillVariables('{{ms}}', { ...ctx, now: new Date('2026-11-24T05:00:00Z') })).toBe('Boa Madrugada!');
  });

  it('leaves other text and unknown variables as written', () => {
    expect(fillVariables('Olá {{cpf}} e {{name', ctx)).toBe('Olá {{cpf}} e {{name');
    expect(fillVariables('sem variáveis', ctx)).toBe('sem variáveis');
  });
});
