import { describe, expect, it } from '@jest/globals';
import { EDIT_LOCK_MS, editability } from './editability.js';

const now = new Date('2026-11-28T12:00:00Z');
const at = (ms: number) => new Date(now.getTime() + ms);

describe('editability (spec 02 §4)', () => {
  it('an INATIVA campaign may change in full', () => {
    expect(editability({ status: 'INATIVA', scheduledAt: null }, now)).toBe('all');
  });

  it('a PROGRAMADA one only while its start is more than an hour away', () => {
    expect(editability({ status: 'PROGRAMADA', scheduledAt: at(EDIT_LOCK_MS + 1000) }, now)).toBe('all');
    expect(editability({ status: 'PROGRAMADA', scheduledAt: at(EDIT_LOCK_MS).toISOString() }, now)).toBe('none');
    expect(editability({ status: 'PROGRAMADA', scheduledAt: at(59 * 60 * 1000) }, now)).toBe('none');
    // due, the dispatcher not there yet
    expect(editability({ status: 'PROGRAMADA', scheduledAt: at(-5000) }, now)).toBe('none');
  });

  it('a CANCELADA one only its messages', () => {
    expect(editability({ status: 'CANCELADA', scheduledAt: at(-3600_000) }, now)).toBe('messages');
  });

  it('a running or finished one not at all', () => {
    expect(editability({ status: 'EM_ANDAMENTO', scheduledAt: at(-1000) }, now)).toBe('none');
    expect(editability({ status: 'FINALIZADA', scheduledAt: null }, now)).toBe('none');
  });
});
