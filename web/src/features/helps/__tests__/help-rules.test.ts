import { describe, expect, it } from '@jest/globals';
import type { HelpDto } from '@wa/contracts';
import {
  changedHelpFields,
  embedUrlOf,
  hasHelpErrors,
  helpFormOf,
  helpPayload,
  isHelpSaveRefusal,
  isTitleTakenMessage,
  thumbnailUrlOf,
  validateHelpForm,
  videoCodeOf,
} from '../help-rules';

const ID = 'dQw4w9WgXcQ';

describe('videoCodeOf: the YouTube id out of a code or an address', () => {
  it.each([
    [ID, ID],
    [`  ${ID}  `, ID],
    ['xyz_123-AB', 'xyz_123-AB'],
    [`https://www.youtube.com/watch?v=${ID}`, ID],
    [`https://youtube.com/watch?v=${ID}&t=42s`, ID],
    [`https://www.youtube.com/watch?feature=share&v=${ID}`, ID],
    [`https://m.youtube.com/watch?v=${ID}`, ID],
    [`http://www.youtube.com/watch?v=${ID}`, ID],
    [`www.youtube.com/watch?v=${ID}`, ID],
    [`https://youtu.be/${ID}`, ID],
    [`https://youtu.be/${ID}?si=AbCdEf&t=10`, ID],
    [`youtu.be/${ID}`, ID],
    [`https://www.youtube.com/embed/${ID}`, ID],
    [`https://www.youtube.com/embed/${ID}?autoplay=1`, ID],
    [`https://www.youtube-nocookie.com/embed/${ID}`, ID],
    [`https://www.youtube.com/shorts/${ID}`, ID],
    [`https://www.youtube.com/live/${ID}?feature=share`, ID],
  ])('%s → %s', (input, id) => {
    expect(videoCodeOf(input)).toBe(id);
  });

  it.each([
    [''],
    ['   '],
    ['not a code'],
    ['https://vimeo.com/123456'],
    [`https://example.com/watch?v=${ID}`],
    ['https://www.youtube.com/watch'],
    ['https://www.youtube.com/watch?v='],
    ['https://www.youtube.com/watch?v=bad%20id'],
    ['https://www.youtube.com/embed/'],
    ['https://youtu.be/'],
    [`javascript://youtu.be/${ID}`],
    ['a'.repeat(101)],
  ])('%j is none', (input) => {
    expect(videoCodeOf(input)).toBeNull();
  });
});

describe('help form rules', () => {
  const help: HelpDto = { id: 3, title: 'Conexões', description: 'Leia o QR code.', video: ID, createdAt: '', updatedAt: '' };

  it('needs a title of 2 to 100 characters and a video code; the description is optional up to 2000', () => {
    expect(validateHelpForm({ title: '', description: '', video: '' })).toEqual({ title: 'required', video: 'required' });
    expect(validateHelpForm({ title: ' a ', description: '', video: 'not a code' })).toEqual({ title: 'tooShort', video: 'video' });
    expect(validateHelpForm({ title: 'x'.repeat(101), description: 'd'.repeat(2001), video: ID })).toEqual({
      title: 'tooLong',
      description: 'tooLong',
    });
    const ok = validateHelpForm({ title: 'Ok', description: '', video: `https://youtu.be/${ID}` });
    expect(ok).toEqual({});
    expect(hasHelpErrors(ok)).toBe(false);
  });

  it('sends trimmed texts and the video as its code', () => {
    expect(helpPayload({ title: '  Filas ', description: ' Como criar. ', video: `https://www.youtube.com/watch?v=${ID}` })).toEqual({
      title: 'Filas',
      description: 'Como criar.',
      video: ID,
    });
  });

  it('an edit sends only what changed', () => {
    expect(changedHelpFields(help, helpPayload(helpFormOf(help)))).toEqual({});
    expect(changedHelpFields(help, { title: 'Conexões', description: 'Outra.', video: 'abc' })).toEqual({
      description: 'Outra.',
      video: 'abc',
    });
  });

  it('builds the thumbnail and player addresses', () => {
    expect(thumbnailUrlOf(ID)).toBe(`https://img.youtube.com/vi/${ID}/mqdefault.jpg`);
    expect(embedUrlOf(ID)).toBe(`https://www.youtube.com/embed/${ID}?autoplay=1`);
  });

  it('tells a refused save (400 ERR_VALIDATION, 409, 422) from other failures', () => {
    expect(isHelpSaveRefusal({ status: 400, data: { error: 'ERR_VALIDATION' } })).toBe(true);
    expect(isHelpSaveRefusal({ status: 409, data: {} })).toBe(true);
    expect(isHelpSaveRefusal({ status: 403, data: { error: 'ERR_NO_PERMISSION' } })).toBe(false);
    expect(isHelpSaveRefusal({ status: 'FETCH_ERROR' })).toBe(false);
    expect(isTitleTakenMessage('A help with this title already exists')).toBe(true);
    expect(isTitleTakenMessage('Too Long!')).toBe(false);
    expect(isTitleTakenMessage(undefined)).toBe(false);
  });
});
