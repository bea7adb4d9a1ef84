import { fillPlaceholders, isOptOut, pickVariant } from './compose.js';

describe('pickVariant', () => {
  it('chooses among the non-empty texts only', () => {
    const texts = ['', 'A', '  ', 'B', ''];
    const seen = new Set(Array.from({ length: 200 }, (_, i) => pickVariant(texts, () => (i % 10) / 10)));
    expect([...seen].sort()).toEqual(['A', 'B']);
  });

  it('answers null when every text is empty', () => {
    expect(pickVariant(['', ' ', '', '', ''], Math.random)).toBeNull();
  });

  it('never reads past the list at random() close to 1', () => {
    expect(pickVariant(['A', 'B'], () => 0.9999999)).toBe('B');
  });
});

describe('fillPlaceholders', () => {
  const to = { name: 'Maria', number: '5511999990001', email: 'maria@example.com' };

  it('fills {nome}, {numero}, {email} and the company variables, in any case', () => {
    const text = 'Olá {nome} ({NUMERO}, {email}), use {cupom} até {data}. {desconhecida}';
    expect(
      fillPlaceholders(text, to, [
        { key: 'cupom', value: 'BLACK10' },
        { key: 'Data', value: 'sexta' },
      ]),
    ).toBe('Olá Maria (5511999990001, maria@example.com), use BLACK10 até sexta. {desconhecida}');
  });

  it('does not let a variable named like a contact field replace the contact', () => {
    expect(fillPlaceholders('{nome}', to, [{ key: 'nome', value: 'X' }])).toBe('Maria');
  });
});

describe('isOptOut', () => {
  it('takes the whole message, in any case and accents', () => {
    for (const said of ['SAIR', 'sair', ' Sair ', 'Parar!', 'stop', 'cancelar', 'Descadastrar.', 'SÁIR']) expect(isOptOut(said)).toBe(true);
  });

  it('ignores the words inside a longer message', () => {
    for (const said of ['quero sair do grupo', 'não pare', 'stop it', '', 'sairr']) expect(isOptOut(said)).toBe(false);
  });

  it('uses the company list when it has one', () => {
    expect(isOptOut('remover', ['REMOVER'])).toBe(true);
    expect(isOptOut('sair', ['REMOVER'])).toBe(false);
  });
});
