import type { CreateTagRequest, TagDto, UserDto } from '@wa/contracts';

/** spec 02 §5 "Tag": the name is required, at least 3 characters. */
export const TAG_NAME_MIN = 3;
export const TAG_NAME_MAX = 100;

/** The server's default colour of a tag. */
export const DEFAULT_TAG_COLOR = '#A4CCCC';

/** The colours offered in the tag dialog, a fixed palette of about 50 (spec 02 §9; any other one through the colour input). */
export const TAG_PALETTE = [
  '#A4CCCC',
  // reds, pinks, purples
  '#FFCDD2',
  '#EF5350',
  '#C62828',
  '#B71C1C',
  '#F8BBD0',
  '#EC407A',
  '#D81B60',
  '#880E4F',
  '#E1BEE7',
  '#AB47BC',
  '#7B1FA2',
  '#4A148C',
  '#7E57C2',
  '#512DA8',
  // indigos, blues, cyans, teals
  '#5C6BC0',
  '#3949AB',
  '#1A237E',
  '#BBDEFB',
  '#42A5F5',
  '#1976D2',
  '#0D47A1',
  '#4FC3F7',
  '#0288D1',
  '#26C6DA',
  '#00838F',
  '#B2DFDB',
  '#26A69A',
  '#00897B',
  '#004D40',
  // greens, limes, yellows, oranges
  '#C8E6C9',
  '#66BB6A',
  '#2E7D32',
  '#1B5E20',
  '#9CCC65',
  '#558B2F',
  '#D4E157',
  '#9E9D24',
  '#FFF176',
  '#F9A825',
  '#FFCA28',
  '#FF8F00',
  '#FFA726',
  '#EF6C00',
  '#FF7043',
  '#D84315',
  // browns and greys
  '#A1887F',
  '#6D4C41',
  '#BDBDBD',
  '#616161',
  '#90A4AE',
  '#546E7A',
  '#263238',
] as const;

/** What the server takes as a colour: #rgb to #rrggbbaa, or a colour name. */
const COLOR = /^#[0-9a-fA-F]{3,8}$|^[a-z]{3,20}$/;

export interface TagFormValues {
  name: string;
  color: string;
  kanban: boolean;
}

/** Texts under `tags.validation`: 'Obrigatório', 'Mensagem muito curta', 'Mensagem muito longa', 'Cor inválida'. */
export type TagProblem = 'required' | 'tooShort' | 'tooLong' | 'color';

export interface TagErrors {
  name?: TagProblem;
  color?: TagProblem;
}

export function tagFormOf(tag: TagDto | null): TagFormValues {
  return { name: tag?.name ?? '', color: tag?.color ?? DEFAULT_TAG_COLOR, kanban: tag?.kanban === 1 };
}

export function validateTagForm(v: TagFormValues): TagErrors {
  const errors: TagErrors = {};
  const name = v.name.trim();
  if (!name) errors.name = 'required';
  else if (name.length < TAG_NAME_MIN) errors.name = 'tooShort';
  else if (name.length > TAG_NAME_MAX) errors.name = 'tooLong';
  const color = v.color.trim();
  if (color && !COLOR.test(color)) errors.color = 'color';
  return errors;
}

export const hasTagErrors = (e: TagErrors) => Object.values(e).some(Boolean);

/** spec 02 §5, §6: only an admin or a supervisor (or a super user) marks a tag for the kanban. */
export function mayMarkKanban(user: Pick<UserDto, 'profile' | 'super'> | null | undefined): boolean {
  return user?.profile === 'admin' || user?.profile === 'supervisor' || user?.super === true;
}

/**
 * The body sent: the trimmed name, the colour (left out when blank: the server's default, or the saved
 * one), and the kanban mark only from who may set it (someone else sending it would get 403).
 */
export function tagPayload(v: TagFormValues, canMarkKanban: boolean): CreateTagRequest {
  const body: CreateTagRequest = { name: v.name.trim() };
  const color = v.color.trim();
  if (color) body.color = color;
  if (canMarkKanban) body.kanban = v.kanban ? 1 : 0;
  return body;
}

/** A colour the native colour input takes (#rrggbb), black for anything else. */
export function nativeColor(color: string): string {
  const c = color.trim();
  if (/^#[0-9a-f]{6}$/i.test(c)) return c.toLowerCase();
  if (/^#[0-9a-f]{3}$/i.test(c)) return `#${[...c.slice(1)].map((x) => x + x).join('')}`.toLowerCase();
  if (/^#[0-9a-f]{8}$/i.test(c)) return c.slice(0, 7).toLowerCase();
  return '#000000';
}

/** Black or white text on a tag's colour: the console's one helper for text on a user's colour. */
export { readableTextOn } from '../../app/contrast';

type TagRef = { id: number; name: string; color: string };

/** A picker list (by name) with a saved tag put in, or replaced in place. */
export function upsertTagInList<T extends TagRef>(list: T[], tag: TagRef): T[] {
  const ref = { ...(list.find((t) => t.id === tag.id) ?? {}), id: tag.id, name: tag.name, color: tag.color } as T;
  const rest = list.filter((t) => t.id !== tag.id);
  const at = rest.findIndex((t) => t.name.localeCompare(ref.name, undefined, { sensitivity: 'base' }) > 0);
  return at < 0 ? [...rest, ref] : [...rest.slice(0, at), ref, ...rest.slice(at)];
}

export function removeTagFromList<T extends TagRef>(list: T[], id: number): T[] {
  return list.filter((t) => t.id !== id);
}
