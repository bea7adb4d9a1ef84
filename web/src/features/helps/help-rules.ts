import type { CreateHelpRequest, HelpDto, UpdateHelpRequest } from '@wa/contracts';
import { errorCode } from '../../app/errors';

/** The bounds the server keeps (services/auth helps.ts). */
export const HELP_LIMITS = { titleMin: 2, titleMax: 100, descriptionMax: 2000, videoMax: 100 } as const;

/** A video's code as YouTube gives it (letters, digits, `-`, `_`), as the server checks it. */
const VIDEO_CODE = /^[A-Za-z0-9_-]{1,100}$/;

export const isVideoCode = (text: string): boolean => VIDEO_CODE.test(text);

/** youtube.com and its variants (www., m., music., the no-cookie embed host) */
const YOUTUBE_HOST = /^(?:(?:www|m|music)\.)?youtube(?:-nocookie)?\.com$/i;
/** the short links' host */
const SHORT_HOST = /^(?:www\.)?youtu\.be$/i;
/** `youtube.com/<kind>/<id>` */
const ID_PATHS = new Set(['embed', 'shorts', 'live', 'v', 'e']);

/**
 * The video's code out of what was typed or pasted: a code as is, or the id of a YouTube address
 * (`https://www.youtube.com/watch?v=ID`, `https://youtu.be/ID`, `…/embed/ID`, `…/shorts/ID`, `…/live/ID`,
 * with or without `https://`, with any other parameter). Null for anything else.
 */
export function videoCodeOf(input: string): string | null {
  const text = input.trim();
  if (!text) return null;
  if (isVideoCode(text)) return text;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z\d+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const parts = url.pathname.split('/').filter(Boolean);
  let id: string | null | undefined;
  if (SHORT_HOST.test(url.hostname)) id = parts[0];
  else if (YOUTUBE_HOST.test(url.hostname)) {
    if (parts[0] === 'watch') id = url.searchParams.get('v');
    else if (parts.length >= 2 && ID_PATHS.has(parts[0])) id = parts[1];
  }
  return id && isVideoCode(id) ? id : null;
}

/** The video's thumbnail (YouTube's 320×180 one). */
export const thumbnailUrlOf = (video: string): string => `https://img.youtube.com/vi/${encodeURIComponent(video)}/mqdefault.jpg`;

/** The player's address: it starts as soon as it shows. */
export const embedUrlOf = (video: string): string => `https://www.youtube.com/embed/${encodeURIComponent(video)}?autoplay=1`;

/** The form as typed. */
export interface HelpFormValues {
  title: string;
  description: string;
  /** the code, or an address the code is read from */
  video: string;
}

/** What the help form sends to `POST /helps`: every field of `CreateHelpRequest` (`PUT /helps/{id}` takes any part of it). */
export type HelpBody = Required<CreateHelpRequest>;

/** What is wrong with a field (texts under `settings.helps.validation`). */
export type HelpProblem = 'required' | 'tooShort' | 'tooLong' | 'video';
export type HelpErrors = Partial<Record<keyof HelpFormValues, HelpProblem>>;

/** Title 2 to 100 characters; description at most 2000; a video code (or a YouTube address) required. */
export function validateHelpForm(v: HelpFormValues): HelpErrors {
  const errors: HelpErrors = {};
  const title = v.title.trim();
  if (!title) errors.title = 'required';
  else if (title.length < HELP_LIMITS.titleMin) errors.title = 'tooShort';
  else if (title.length > HELP_LIMITS.titleMax) errors.title = 'tooLong';
  if (v.description.trim().length > HELP_LIMITS.descriptionMax) errors.description = 'tooLong';
  if (!v.video.trim()) errors.video = 'required';
  else if (!videoCodeOf(v.video)) errors.video = 'video';
  return errors;
}

export const hasHelpErrors = (e: HelpErrors): boolean => Object.values(e).some(Boolean);

/** The bounds a "tooShort"/"tooLong" problem names. */
export function helpFieldBounds(key: keyof HelpFormValues): { min: number; max: number } {
  if (key === 'title') return { min: HELP_LIMITS.titleMin, max: HELP_LIMITS.titleMax };
  if (key === 'description') return { min: 0, max: HELP_LIMITS.descriptionMax };
  return { min: 1, max: HELP_LIMITS.videoMax };
}

export function helpFormOf(h: HelpDto | null): HelpFormValues {
  return { title: h?.title ?? '', description: h?.description ?? '', video: h?.video ?? '' };
}

/** The body of a valid form (validateHelpForm found nothing): trimmed, the video as its code. */
export function helpPayload(v: HelpFormValues): HelpBody {
  return { title: v.title.trim(), description: v.description.trim(), video: videoCodeOf(v.video) ?? v.video.trim() };
}

/** What an edit changed (the `PUT /helps/{id}` body). */
export function changedHelpFields(saved: HelpDto, body: HelpBody): UpdateHelpRequest {
  const before = helpPayload(helpFormOf(saved));
  const out: UpdateHelpRequest = {};
  for (const key of Object.keys(body) as (keyof HelpBody)[]) {
    if (body[key] !== before[key]) out[key] = body[key];
  }
  return out;
}

/**
 * spec 02 §8: a refused save (a help with that title, fields the server did not take) shows
 * 'Não foi possível realizar a operação. Verifique se já existe uma ajuda com o mesmo nome...'; other
 * failures (no network, not allowed) show their own text.
 */
export function isHelpSaveRefusal(err: unknown): boolean {
  if (errorCode(err) === 'ERR_VALIDATION') return true;
  const status = err && typeof err === 'object' && 'status' in err ? (err as { status: unknown }).status : undefined;
  return status === 400 || status === 409 || status === 422;
}

/** The server's message for a title another help has ('A help with this title already exists'). */
export const isTitleTakenMessage = (message: string | undefined): boolean => !!message && /already exists/i.test(message);
