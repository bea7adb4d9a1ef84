import { describe, expect, it } from '@jest/globals';
import { i18n } from '../../app/i18n';
import en from '../locales/en';
import es from '../locales/es';

i18n.addResourceBundle('en', 'translation', en, true, true);
i18n.addResourceBundle('es', 'translation', es, true, true);

const say = (lng: string, key: string, count: number) => i18n.t(key, { lng, count });

describe('texts with a count say it in the right plural (issue 45 §6)', () => {
  it('one and more, in the three languages', () => {
    expect(say('pt', 'chats.unread', 1)).toBe('1 mensagem não lida');
    expect(say('pt', 'chats.unread', 2)).toBe('2 mensagens não lidas');
    expect(say('en', 'chats.unread', 1)).toBe('1 unread message');
    expect(say('en', 'chats.unread', 2)).toBe('2 unread messages');
    expect(say('es', 'chats.unread', 1)).toBe('1 mensaje sin leer');
    expect(say('es', 'chats.unread', 2)).toBe('2 mensajes sin leer');
    expect(say('pt', 'billing.subscription.daysLeft', 1)).toBe('Você possui 1 dia restante');
    expect(say('pt', 'billing.subscription.daysLeft', 6)).toBe('Você possui 6 dias restantes');
    expect(say('pt', 'signup.trial', 1)).toBe('1 dia de teste');
    expect(say('es', 'settings.plans.offered', 7)).toBe('Sí · 7 días de prueba');
    expect(say('en', 'tickets.unread', 3)).toBe('3 unread');
  });

  it('has every form Portuguese and Spanish ask for (their "many" of a million), never the bare key', () => {
    const keys = ['chats.unread', 'tickets.unread', 'billing.subscription.daysLeft', 'signup.trial', 'settings.plans.offered'];
    for (const lng of ['pt', 'en', 'es'])
      for (const key of keys)
        for (const count of [0, 1, 2, 1_000_000]) {
          const text = say(lng, key, count);
          expect(text).toContain(String(count));
          expect(text).not.toMatch(/\((s|ns|es)\)/);
        }
  });

  it('keeps the spec’s own text as it is written', () => {
    expect(i18n.t('auth.expiry', { lng: 'pt', days: 2 })).toBe('Sua assinatura vence em 2 dia(s)');
  });
});
