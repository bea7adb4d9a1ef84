import { describe, expect, it } from '@jest/globals';
import type { AppMessageChannelPayload } from '@wa/contracts';
import { i18n } from '../../../app/i18n';
import { aMessage, aTicket } from '../../../test/fixtures';
import {
  CHIME_NOTES,
  CHIME_PEAK,
  chimeGain,
  chimeLength,
  clampVolume,
  countLabel,
  isOpenTicket,
  notificationBody,
  notificationTag,
  notificationTitle,
  PENDING_NOTIFICATIONS_ARGS,
  shouldNotify,
  ticketPath,
} from '../notification-rules';

const t = i18n.t.bind(i18n) as (key: string) => string;

function event(
  overrides: { message?: Parameters<typeof aMessage>[0]; ticket?: Parameters<typeof aTicket>[0]; action?: 'create' | 'update' } = {},
): AppMessageChannelPayload {
  const ticket = aTicket({ id: 5, ...overrides.ticket });
  return {
    action: overrides.action ?? 'create',
    message: aMessage({ id: 50, ticketId: ticket.id, fromMe: false, body: 'Olá, preciso de ajuda', ...overrides.message }),
    ticket,
    contact: ticket.contact,
  };
}

const away = { userId: 7, openTicket: undefined, pageHidden: false };

describe('when a new message notifies (spec 01 §2 "Top bar")', () => {
  it('a new customer message on a ticket nobody holds, or the user holds', () => {
    expect(shouldNotify(event(), away)).toBe(true);
    expect(shouldNotify(event({ ticket: { userId: 7, status: 'open' } }), away)).toBe(true);
  });

  it('not our own messages, edits (acks), deleted messages, nor a colleague’s conversation', () => {
    expect(shouldNotify(event({ message: { fromMe: true } }), away)).toBe(false);
    expect(shouldNotify(event({ action: 'update' }), away)).toBe(false);
    expect(shouldNotify(event({ message: { isDeleted: true } }), away)).toBe(false);
    expect(shouldNotify(event({ ticket: { userId: 8, status: 'open' } }), away)).toBe(false);
  });

  it('not for the chat on screen, unless the page is hidden', () => {
    expect(shouldNotify(event(), { ...away, openTicket: 'uuid-5' })).toBe(false);
    expect(shouldNotify(event(), { ...away, openTicket: '5' })).toBe(false);
    expect(shouldNotify(event(), { ...away, openTicket: 'uuid-6' })).toBe(true);
    expect(shouldNotify(event(), { ...away, openTicket: 'uuid-5', pageHidden: true })).toBe(true);
  });

  it('knows the open ticket by uuid or id, and opens tickets as the app does', () => {
    expect(isOpenTicket({ id: 5, uuid: 'abc' }, 'abc')).toBe(true);
    expect(isOpenTicket({ id: 5, uuid: 'abc' }, '5')).toBe(true);
    expect(isOpenTicket({ id: 5, uuid: 'abc' }, undefined)).toBe(false);
    expect(ticketPath({ id: 5, uuid: 'abc' })).toBe('/tickets/abc');
    expect(ticketPath({ id: 5, uuid: '' })).toBe('/tickets/5');
    expect(notificationTag({ id: 5 })).toBe('ticket-5');
  });
});

describe('what a notification says', () => {
  it('the contact’s name (its number when it has none) as title', () => {
    expect(notificationTitle(event())).toBe('Contato 5');
    const p = event();
    expect(notificationTitle({ ...p, contact: { ...p.contact, name: ' ' } })).toBe(p.contact.number);
  });

  it('the message on one line, cut; a message without text says what it is', () => {
    expect(notificationBody({ body: '*Ana:*\nOlá   mundo', mediaType: 'chat' }, t)).toBe('Ana: Olá mundo');
    const long = notificationBody({ body: 'a'.repeat(150), mediaType: 'chat' }, t);
    expect(Array.from(long)).toHaveLength(100);
    expect(long.endsWith('…')).toBe(true);
    expect(notificationBody({ body: '', mediaType: 'image' }, t)).toBe('Mídia');
    expect(notificationBody({ body: '  ', mediaType: 'chat' }, t)).toBe('Nova mensagem');
  });
});

describe('the count badge', () => {
  it('lists the pending tickets of every queue the user sees', () => {
    expect(PENDING_NOTIFICATIONS_ARGS).toEqual({ status: 'pending', showAll: false, queueIds: [] });
  });

  it('shows nothing for none, the number, N+ when there are more, 99+ past 99', () => {
    expect(countLabel(0)).toBeNull();
    expect(countLabel(3)).toBe('3');
    expect(countLabel(20, true)).toBe('20+');
    expect(countLabel(120)).toBe('99+');
  });
});

describe('the sound (spec 01 §9 volume)', () => {
  it('brings the volume to 0–1 in steps of 0.1', () => {
    expect(clampVolume(0.44)).toBe(0.4);
    expect(clampVolume('0.7')).toBe(0.7);
    expect(clampVolume(3)).toBe(1);
    expect(clampVolume(-1)).toBe(0);
    expect(clampVolume('x')).toBe(1);
    expect(clampVolume('')).toBe(1);
  });

  it('plays at the volume: 0 is silent, 1 is the chime’s peak', () => {
    expect(chimeGain(0)).toBe(0);
    expect(chimeGain(1)).toBe(CHIME_PEAK);
    expect(chimeGain(0.5)).toBe(0.2);
    expect(chimeGain(0.04)).toBe(0);
  });

  it('is a short two-tone chime', () => {
    expect(CHIME_NOTES).toHaveLength(2);
    expect(CHIME_NOTES[0].frequency).not.toBe(CHIME_NOTES[1].frequency);
    expect(chimeLength()).toBeLessThan(1);
  });
});
