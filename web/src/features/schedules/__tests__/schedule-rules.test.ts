import { describe, expect, it } from '@jest/globals';
import { i18n } from '../../../app/i18n';
import {
  defaultSendAt,
  eventTone,
  hasScheduleErrors,
  isAcceptedPicture,
  isReadOnly,
  scheduleTitle,
  sendAtInput,
  sendAtToIso,
  statusKey,
  toDateTimeLocal,
  validateSchedule,
} from '../schedule-rules';
import { canSchedule } from '../../../app/plan-flags';
import { languageTag } from '../../../app/i18n';
import { serverFieldErrors } from '../../../components/form-rules';

const t = i18n.t.bind(i18n) as (key: string, options?: Record<string, unknown>) => string;

describe('schedule form rules (spec 01 §5 "Schedule")', () => {
  const ok = { body: 'Olá, tudo bem?', contactId: 7, sendAt: '2026-11-24T15:00' };

  it('needs a message of at least 5 characters, a contact and a send time', () => {
    expect(validateSchedule(ok)).toEqual({});
    expect(hasScheduleErrors(validateSchedule(ok))).toBe(false);
    expect(validateSchedule({ ...ok, body: '  ' }).body).toBe('required');
    expect(validateSchedule({ ...ok, body: ' Olá ' }).body).toBe('tooShort');
    expect(validateSchedule({ ...ok, body: 'Olá!!' }).body).toBeUndefined();
    expect(validateSchedule({ ...ok, contactId: null }).contactId).toBe('required');
    expect(validateSchedule({ ...ok, sendAt: '' }).sendAt).toBe('required');
    expect(validateSchedule({ ...ok, sendAt: 'amanhã' }).sendAt).toBe('required');
    expect(hasScheduleErrors(validateSchedule({ body: '', contactId: null, sendAt: '' }))).toBe(true);
  });

  it("shows the spec's Portuguese texts", () => {
    expect(t(`schedules.validation.${validateSchedule({ ...ok, body: 'abc' }).body}`)).toBe('Mensagem muito curta');
    expect(t(`schedules.validation.${validateSchedule({ ...ok, contactId: null }).contactId}`)).toBe('Obrigatório');
    expect(t('schedules.toasts.saved')).toBe('Agendamento salvo com sucesso!');
  });

  it('starts one hour from now, written for a datetime-local field', () => {
    expect(defaultSendAt(new Date(2026, 10, 24, 14, 5, 42))).toBe('2026-11-24T15:05');
    expect(defaultSendAt(new Date(2026, 11, 31, 23, 30))).toBe('2027-01-01T00:30');
    expect(toDateTimeLocal(new Date(2026, 0, 2, 3, 4))).toBe('2026-01-02T03:04');
  });

  it("reads the field on this browser's clock and sends an ISO time; a saved time comes back the same", () => {
    expect(sendAtToIso('2026-11-24T15:00')).toBe(new Date(2026, 10, 24, 15, 0).toISOString());
    expect(sendAtToIso('2026-11-24T15:00:30')).toBe(new Date(2026, 10, 24, 15, 0, 30).toISOString());
    expect(sendAtToIso('2026-02-31T10:00')).toBeNull();
    expect(sendAtToIso('24/11/2026 15:00')).toBeNull();
    expect(sendAtInput(new Date(2026, 10, 24, 15, 0).toISOString())).toBe('2026-11-24T15:00');
    expect(sendAtInput('not a date')).toBe('');
  });
});

describe('schedule status', () => {
  it('names each status and puts it in the dialog title, with the reason of a failed send', () => {
    expect([statusKey('PENDENTE'), statusKey('ENVIADA'), statusKey('ERRO')]).toEqual(['pending', 'sent', 'error']);
    expect(scheduleTitle(null, t)).toBe('Novo agendamento');
    expect(scheduleTitle({ status: 'PENDENTE', reason: null }, t)).toBe('Agendamento — Pendente');
    expect(scheduleTitle({ status: 'ENVIADA', reason: null }, t)).toBe('Agendamento — Enviada');
    expect(scheduleTitle({ status: 'ERRO', reason: 'ERR_NO_DEF_WAPP_FOUND' }, t)).toBe('Agendamento — Erro: ERR_NO_DEF_WAPP_FOUND');
    expect(scheduleTitle({ status: 'ERRO', reason: null }, t)).toBe('Agendamento — Erro');
  });

  it('is read-only once sent; colours events as sent, failed or waiting', () => {
    expect(isReadOnly(null)).toBe(false);
    expect(isReadOnly({ sentAt: null })).toBe(false);
    expect(isReadOnly({ sentAt: '2026-11-24T18:00:00.000Z' })).toBe(true);
    expect([eventTone('ENVIADA'), eventTone('ERRO'), eventTone('PENDENTE')]).toEqual(['sent', 'error', 'waiting']);
  });
});

describe('schedule picture and errors', () => {
  it('takes png, jpg and jpeg only', () => {
    expect(isAcceptedPicture({ name: 'foto.PNG', type: 'image/png' })).toBe(true);
    expect(isAcceptedPicture({ name: 'foto.jpg', type: 'image/jpeg' })).toBe(true);
    expect(isAcceptedPicture({ name: 'foto.jpeg', type: '' })).toBe(true);
    expect(isAcceptedPicture({ name: 'foto.gif', type: 'image/gif' })).toBe(false);
    expect(isAcceptedPicture({ name: 'doc.pdf', type: 'application/pdf' })).toBe(false);
    expect(isAcceptedPicture({ name: 'fake.png', type: 'application/pdf' })).toBe(false);
  });

  it('reads the fields the server refused', () => {
    const err = {
      status: 400,
      data: {
        error: 'ERR_VALIDATION',
        details: [
          { field: 'sendAt', messages: ['Data inválida'] },
          { field: 'body', messages: ['Mensagem muito curta', 'x'] },
        ],
      },
    };
    expect(serverFieldErrors(err)).toEqual({ sendAt: 'Data inválida', body: 'Mensagem muito curta' });
    expect(serverFieldErrors({ status: 409, data: { error: 'ERR_SCHEDULE_ALREADY_SENT' } })).toEqual({});
    expect(serverFieldErrors(undefined)).toEqual({});
  });

  it('follows the plan and the language', () => {
    expect(canSchedule({ company: { plan: { useSchedules: true } } })).toBe(true);
    expect(canSchedule({ company: { plan: { useSchedules: false } } })).toBe(false);
    expect(canSchedule(null)).toBe(false);
    expect([languageTag('pt'), languageTag('en'), languageTag('es'), languageTag(undefined)]).toEqual(['pt-BR', 'en-US', 'es', 'pt-BR']);
  });
});
