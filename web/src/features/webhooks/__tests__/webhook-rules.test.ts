import { describe, expect, it } from '@jest/globals';
import { WEBHOOK_EVENTS, type WebhookEvent } from '@wa/contracts';
import { i18n } from '../../../app/i18n';
import en from '../../../i18n/locales/en';
import es from '../../../i18n/locales/es';
import { eventLabel, isWebhookUrl, lastOutcome, toggleEvent, validateWebhookForm } from '../webhook-rules';

describe('the webhook form and log (issue 45 §3)', () => {
  it('takes an http(s) URL and at least one event', () => {
    expect(validateWebhookForm({ url: '', enabled: true, events: ['message.sent'] })).toEqual({ url: 'required', events: null });
    expect(validateWebhookForm({ url: 'ftp://x.example.com', enabled: true, events: [] })).toEqual({ url: 'invalid', events: 'none' });
    expect(validateWebhookForm({ url: ' https://loja.example.com/hook ', enabled: false, events: ['ticket.status'] })).toEqual({
      url: null,
      events: null,
    });
    expect(isWebhookUrl('http://127.0.0.1:9000/h')).toBe(true);
    expect(isWebhookUrl('loja.example.com')).toBe(false);
  });

  it('keeps the events ticked in the order of the list, whatever order they were ticked in', () => {
    const all: WebhookEvent[] = ['message.received', 'message.sent', 'ticket.status'];
    expect(toggleEvent(all, ['ticket.status'], 'message.received', true)).toEqual(['message.received', 'ticket.status']);
    expect(toggleEvent(all, ['message.received', 'ticket.status'], 'message.received', false)).toEqual(['ticket.status']);
  });

  it('names every event of the contract in the three languages, and an event it does not know by its own name', () => {
    i18n.addResourceBundle('en', 'translation', en, true, true);
    i18n.addResourceBundle('es', 'translation', es, true, true);
    for (const lng of ['pt', 'en', 'es']) {
      const t = i18n.getFixedT(lng);
      for (const event of WEBHOOK_EVENTS) {
        const label = eventLabel(t, event);
        expect({ lng, event, named: label !== event && label.length > 0 }).toEqual({ lng, event, named: true });
      }
    }
    expect(eventLabel(i18n.getFixedT('pt'), 'message.received')).toBe('Mensagem recebida');
    expect(eventLabel(i18n.getFixedT('en'), 'message.received')).toBe('Message received');
    expect(eventLabel(i18n.getFixedT('pt'), 'invoice.paid')).toBe('invoice.paid');
  });

  it("says what the last attempt got: the error, else the receiver's status, else nothing yet", () => {
    expect(lastOutcome({ lastStatus: 503, lastError: 'HTTP 503' })).toBe('HTTP 503');
    expect(lastOutcome({ lastStatus: null, lastError: 'connect ECONNREFUSED 127.0.0.1:9' })).toBe('connect ECONNREFUSED 127.0.0.1:9');
    expect(lastOutcome({ lastStatus: 200, lastError: null })).toBe('HTTP 200');
    expect(lastOutcome({ lastStatus: null, lastError: null })).toBe('');
  });
});
