import type {
  AnnouncementDto,
  AnnouncementEvent,
  AnnouncementsPage,
  CreateAnnouncementRequest,
  UpdateAnnouncementRequest,
  UserDto,
} from '@wa/contracts';

/** spec 02 "Announcement": 1 high, 2 medium, 3 low. */
export type AnnouncementPriority = AnnouncementDto['priority'];
export const ANNOUNCEMENT_PRIORITIES: readonly AnnouncementPriority[] = [1, 2, 3];
/** spec 02: a new announcement is low priority and active. */
export const DEFAULT_PRIORITY: AnnouncementPriority = 3;
export const DEFAULT_STATUS = true;

/** Names of the priorities (texts under `announcements.priorities`). */
export type PriorityName = 'high' | 'medium' | 'low';
const PRIORITY_NAMES: Record<AnnouncementPriority, PriorityName> = { 1: 'high', 2: 'medium', 3: 'low' };
/** spec 02: high red, medium orange, low grey (Chakra colour palettes). */
const PRIORITY_COLORS: Record<AnnouncementPriority, 'red' | 'orange' | 'gray'> = { 1: 'red', 2: 'orange', 3: 'gray' };

const asPriority = (p: number | null | undefined): AnnouncementPriority => (p === 1 || p === 2 || p === 3 ? p : DEFAULT_PRIORITY);

export const priorityName = (p: number | null | undefined): PriorityName => PRIORITY_NAMES[asPriority(p)];
/** The priority's colour palette; anything else is shown as low. */
export const priorityColor = (p: number | null | undefined): 'red' | 'orange' | 'gray' => PRIORITY_COLORS[asPriority(p)];

/** spec 02: the attachment is one image, .png, .jpg or .jpeg. */
export const IMAGE_EXTENSIONS = ['.png', '.jpg', '.jpeg'] as const;
/** The file input's `accept`. */
export const IMAGE_ACCEPT = '.png,.jpg,.jpeg,image/png,image/jpeg';

export function isAcceptedImage(file: Pick<File, 'name'>): boolean {
  const name = file.name.trim().toLowerCase();
  return IMAGE_EXTENSIONS.some((ext) => name.endsWith(ext) && name.length > ext.length);
}

/** The form as typed. */
export interface AnnouncementFormValues {
  title: string;
  text: string;
  priority: AnnouncementPriority;
  status: boolean;
}

/** What the announcement form sends to `POST /announcements`: every field of `CreateAnnouncementRequest` (`PUT` takes any part of it). */
export type AnnouncementBody = Required<CreateAnnouncementRequest>;

/** Texts under `announcements.validation`: 'Obrigatório', and the image type. */
export type AnnouncementProblem = 'required';
export interface AnnouncementErrors {
  title?: AnnouncementProblem;
  text?: AnnouncementProblem;
}

export function announcementFormOf(a: AnnouncementDto | null): AnnouncementFormValues {
  return {
    title: a?.title ?? '',
    text: a?.text ?? '',
    priority: a ? asPriority(a.priority) : DEFAULT_PRIORITY,
    status: a ? a.status : DEFAULT_STATUS,
  };
}

/** spec 02: title and text required ('Obrigatório'). */
export function validateAnnouncementForm(v: AnnouncementFormValues): AnnouncementErrors {
  const errors: AnnouncementErrors = {};
  if (!v.title.trim()) errors.title = 'required';
  if (!v.text.trim()) errors.text = 'required';
  return errors;
}

export const hasAnnouncementErrors = (e: AnnouncementErrors): boolean => Object.values(e).some(Boolean);

/** The body of a valid form: trimmed texts. */
export function announcementPayload(v: AnnouncementFormValues): AnnouncementBody {
  return { title: v.title.trim(), text: v.text.trim(), priority: asPriority(v.priority), status: v.status };
}

/** What an edit changed (the `PUT /announcements/{id}` body). */
export function changedAnnouncementFields(saved: AnnouncementDto, body: AnnouncementBody): UpdateAnnouncementRequest {
  const before = announcementPayload(announcementFormOf(saved));
  const out: UpdateAnnouncementRequest = {};
  for (const key of Object.keys(body) as (keyof AnnouncementBody)[]) {
    if (body[key] !== before[key]) (out as Record<string, unknown>)[key] = body[key];
  }
  return out;
}

/**
 * Whether /announcements may open (super users only): yes for a super user; a "no" only once the user is
 * known to be current (`settled`), as plan-gated pages do. Null: not known yet.
 */
export function superAccess(user: Pick<UserDto, 'super'> | null | undefined, settled: boolean): boolean | null {
  if (!user) return null;
  if (user.super) return true;
  return settled ? false : null;
}

/** The image's address (`mediaUrl`), versioned by the last change so a replaced image is fetched anew. Null: none. */
export function announcementImageUrl(a: Pick<AnnouncementDto, 'mediaUrl' | 'mediaPath' | 'updatedAt'>): string | null {
  if (!a.mediaUrl || !a.mediaPath) return null;
  return `${a.mediaUrl}${a.mediaUrl.includes('?') ? '&' : '?'}v=${encodeURIComponent(a.updatedAt)}`;
}

/** The top bar's button and popover read every announcement the user may see, unsearched (one cache entry). */
export const POPOVER_SEARCH = '';

/** The top bar's popover: the active announcements, in the server's order (newest first). */
export function activeAnnouncements(pages: readonly AnnouncementsPage[] | undefined): AnnouncementDto[] {
  const seen = new Set<number>();
  const out: AnnouncementDto[] = [];
  for (const page of pages ?? []) {
    for (const a of page.records ?? []) {
      if (!a.status || seen.has(a.id)) continue;
      seen.add(a.id);
      out.push(a);
    }
  }
  return out;
}

/**
 * The badge: how many announcements are active. The server counts what the user may see (only the active
 * ones for most users, all of them for super users): the inactive ones loaded are taken off that count,
 * and it is never less than the active ones loaded.
 */
export function activeAnnouncementsCount(pages: readonly AnnouncementsPage[] | undefined): number {
  if (!pages?.length) return 0;
  const records = pages.flatMap((p) => p.records ?? []);
  const active = activeAnnouncements(pages).length;
  const inactive = records.filter((a) => !a.status).length;
  const counted = typeof pages[0].count === 'number' ? pages[0].count - inactive : active;
  return Math.max(active, counted);
}

/** Who receives the list: super users see every announcement, everyone else the active ones. */
export interface AnnouncementListContext {
  isSuper: boolean;
  /** the list's search text (a new announcement joins only the unsearched list) */
  search: string;
}

/**
 * A live event (`company-announcement`) on a cached list: a deleted announcement leaves it; a changed one is
 * replaced in place, or leaves it when the user may no longer see it (inactive, not a super user); a new one
 * the user may see goes on top of the unsearched list. The count follows.
 */
export function applyAnnouncementEvent(
  pages: AnnouncementsPage[],
  event: AnnouncementEvent,
  ctx: AnnouncementListContext,
): AnnouncementsPage[] {
  if (pages.length === 0) return pages;
  const id = event.action === 'delete' ? event.announcementId : event.announcement.id;
  const present = pages.some((p) => (p.records ?? []).some((a) => a.id === id));
  const withCount =
    (delta: number) =>
    (p: AnnouncementsPage): AnnouncementsPage => ({ ...p, count: Math.max(0, (p.count ?? 0) + delta) });

  if (event.action === 'delete') {
    if (!present) return pages;
    return pages.map((p) => withCount(-1)({ ...p, records: (p.records ?? []).filter((a) => a.id !== id) }));
  }

  const next = event.announcement;
  const visible = ctx.isSuper || next.status;
  if (present) {
    if (visible) return pages.map((p) => ({ ...p, records: (p.records ?? []).map((a) => (a.id === id ? next : a)) }));
    return pages.map((p) => withCount(-1)({ ...p, records: (p.records ?? []).filter((a) => a.id !== id) }));
  }
  if (!visible || ctx.search.trim()) return pages;
  const [first, ...rest] = pages;
  return [{ ...first, records: [next, ...(first.records ?? [])] }, ...rest].map(withCount(1));
}
