import { describe, expect, it } from '@jest/globals';
import { greetingOnAccept } from './greeting.js';

describe('the greeting when a ticket is accepted', () => {
  const at = new Date('2026-11-24T14:30:00Z'); // 11:30 in São Paulo, 15:30 in Lisbon, 23:30 in Tokyo

  it("greets by the hour on the company's clocks", () => {
    expect(greetingOnAccept('Maria Silva', 'Ana', 'America/Sao_Paulo', at)).toBe(
      'Bom dia *Maria*, meu nome é *Ana* e agora vou prosseguir com seu atendimento!',
    );
    expect(greetingOnAccept('Maria Silva', 'Ana', 'Europe/Lisbon', at)).toMatch(/^Boa tarde \*Maria\*/);
    expect(greetingOnAccept('Maria Silva', 'Ana', 'Asia/Tokyo', at)).toMatch(/^Boa noite \*Maria\*/);
  });
});
