import type { WebhookDeliveryDto, WebhookEvent } from '@wa/contracts';
import type { TFunction } from 'i18next';
import { languageTag } from '../../app/i18n';

/** The form of the webhook's settings. */
export interface WebhookFormValues {
  url: string;
  enabled: boolean;
  events: WebhookEvent[];
}

export interface WebhookFormProblems {
  url: 'required' | 'invalid' | null;
  events: 'none' | null;
}

/** A URL the server takes: http or https, with a host. */
export function isWebhookUrl(text: string): boolean {
  try {
    const u = new URL(text.trim());
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
  } catch {
    return false;
  }
}

export function validateWebhookForm(v: WebhookFormValues): WebhookFormProblems {
  const url = v.url.trim();
  return {
    url: !url ? 'required' : isWebhookUrl(url) ? null : 'invalid',
    events: v.events.length === 0 ? 'none' : null,
  };
}

/** The events ticked, in the order of `all` (WEBHOOK_EVENTS): one added or taken off. */
export function toggleEvent(all: readonly WebhookEvent[], chosen: WebhookEvent[], event: WebhookEvent, on: boolean): WebhookEvent[] {
  const next = new Set(chosen);
  if (on) next.add(event);
  else next.delete(event);
  return all.filter((e) => next.has(e));
}

/** An event's name in the language shown (its key: the event with `_` for `.`), else the event itself (one added since). */
export function eventLabel(t: TFunction, event: string): string {
  return t(`webhooks.events.${event.replace(/\./g, '_')}`, { defaultValue: event });
}

export const DELIVERY_STATUS_PALETTE: Record<WebhookDeliveryDto['status'], string> = {
  pending: 'yellow',
  delivered: 'green',
  failed: 'red',
};

/** What the last attempt got: the receiver's HTTP status, the error (a timeout, a refused connection), or nothing yet. */
export function lastOutcome(d: Pick<WebhookDeliveryDto, 'lastStatus' | 'lastError'>): string {
  if (d.lastError) return d.lastError;
  if (d.lastStatus !== null) return `HTTP ${d.lastStatus}`;
  return '';
}

/** A date and time in the language shown (short). */
export function whenText(iso: string | null | undefined, language: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(languageTag(language), { dateStyle: 'short', timeStyle: 'medium' });
}
