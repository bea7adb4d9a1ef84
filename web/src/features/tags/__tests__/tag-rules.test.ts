import { describe, expect, it } from '@jest/globals';
import {
  DEFAULT_TAG_COLOR,
  mayMarkKanban,
  readableTextOn,
  removeTagFromList,
  tagFormOf,
  tagPayload,
  upsertTagInList,
  validateTagForm,
} from '../tag-rules';
import { aTag } from './a-tag';

describe('tag rules (spec 02 §5 "Tag", §6)', () => {
  it('the name is required and has at least 3 characters (spaces around it do not count)', () => {
    const v = (name: string) => validateTagForm({ name, color: '#fff', kanban: false }).name;
    expect(v('')).toBe('required');
    expect(v('   ')).toBe('required');
    expect(v('ab')).toBe('tooShort');
    expect(v(' ab ')).toBe('tooShort');
    expect(v('abc')).toBeUndefined();
    expect(v('x'.repeat(101))).toBe('tooLong');
  });

  it('the colour is optional, else a #hex or a colour name', () => {
    const c = (color: string) => validateTagForm({ name: 'abc', color, kanban: false }).color;
    expect(c('')).toBeUndefined();
    expect(c('#A4CCCC')).toBeUndefined();
    expect(c('#abc')).toBeUndefined();
    expect(c('red')).toBeUndefined();
    expect(c('#zzz')).toBe('color');
    expect(c('rgb(1,2,3)')).toBe('color');
  });

  it('only admins, supervisors and super users mark a tag for the kanban', () => {
    expect(mayMarkKanban({ profile: 'admin', super: false })).toBe(true);
    expect(mayMarkKanban({ profile: 'supervisor', super: false })).toBe(true);
    expect(mayMarkKanban({ profile: 'user', super: true })).toBe(true);
    expect(mayMarkKanban({ profile: 'user', super: false })).toBe(false);
    expect(mayMarkKanban(null)).toBe(false);
  });

  it('the body: the trimmed name, the colour when given, the mark only from who may set it', () => {
    expect(tagPayload({ name: '  VIP  ', color: ' #123456 ', kanban: true }, true)).toEqual({ name: 'VIP', color: '#123456', kanban: 1 });
    expect(tagPayload({ name: 'VIP', color: '#123456', kanban: false }, true)).toEqual({ name: 'VIP', color: '#123456', kanban: 0 });
    expect(tagPayload({ name: 'VIP', color: '#123456', kanban: true }, false)).toEqual({ name: 'VIP', color: '#123456' });
    expect(tagPayload({ name: 'VIP', color: '  ', kanban: false }, false)).toEqual({ name: 'VIP' });
  });

  it('a new tag starts with the default colour and no mark; an edit with what was saved', () => {
    expect(tagFormOf(null)).toEqual({ name: '', color: DEFAULT_TAG_COLOR, kanban: false });
    expect(tagFormOf(aTag(1, 'VIP', { color: '#000', kanban: 1 }))).toEqual({ name: 'VIP', color: '#000', kanban: true });
  });

  it('writes in black on light colours and in white on dark ones', () => {
    expect(readableTextOn('#ffffff')).toBe('#000000');
    expect(readableTextOn('#A4CCCC')).toBe('#000000');
    expect(readableTextOn('#F9A825')).toBe('#000000');
    expect(readableTextOn('#000')).toBe('#ffffff');
    expect(readableTextOn('#1976D2')).toBe('#ffffff');
    expect(readableTextOn('#C62828')).toBe('#ffffff');
    expect(readableTextOn('blue')).toBe('#000000');
  });

  it('keeps a picker list by name when a tag is saved or deleted', () => {
    const list = [aTag(1, 'Alfa'), aTag(2, 'Gama')];
    expect(upsertTagInList(list, aTag(3, 'beta')).map((t) => t.name)).toEqual(['Alfa', 'beta', 'Gama']);
    expect(upsertTagInList(list, aTag(1, 'Zeta', { color: '#000' })).map((t) => [t.name, t.color])).toEqual([
      ['Gama', '#1976D2'],
      ['Zeta', '#000'],
    ]);
    expect(removeTagFromList(list, 1).map((t) => t.id)).toEqual([2]);
  });
});
