import { describe, expect, it } from '@jest/globals';
import { lastMessagePreview } from '../preview';

describe('last message preview', () => {
  it('cuts after 20 characters', () => {
    expect(lastMessagePreview('Olá, preciso de ajuda com meu pedido')).toBe('Olá, preciso de ajud...');
    expect(lastMessagePreview('exatamente vinte car')).toBe('exatamente vinte car');
  });

  it('shows one line, without the bold markers of the signature', () => {
    expect(lastMessagePreview('*Ana:*\nBom dia')).toBe('Ana: Bom dia');
  });

  it('counts characters, not UTF-16 units', () => {
    expect(lastMessagePreview('😀'.repeat(25))).toBe(`${'😀'.repeat(20)}...`);
  });

  it('is empty for no message', () => {
    expect(lastMessagePreview(null)).toBe('');
  });
});
