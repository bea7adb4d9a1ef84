import { describe, expect, it } from '@jest/globals';
import type { AnnouncementsPage } from '@wa/contracts';
import {
  activeAnnouncements,
  activeAnnouncementsCount,
  announcementFormOf,
  announcementImageUrl,
  announcementPayload,
  applyAnnouncementEvent,
  changedAnnouncementFields,
  hasAnnouncementErrors,
  isAcceptedImage,
  priorityColor,
  priorityName,
  superAccess,
  validateAnnouncementForm,
} from '../announcement-rules';
import { anAnnouncement, withImage } from './an-announcement';

const page = (records: AnnouncementsPage['records'], count = records.length, hasMore = false): AnnouncementsPage => ({
  records,
  count,
  hasMore,
});
const ids = (pages: AnnouncementsPage[]) => pages.flatMap((p) => p.records.map((a) => a.id));

describe('priority (spec 02: 1 high red, 2 medium orange, 3 low grey)', () => {
  it.each([
    [1, 'high', 'red'],
    [2, 'medium', 'orange'],
    [3, 'low', 'gray'],
  ] as const)('%i is %s, %s', (p, name, color) => {
    expect(priorityName(p)).toBe(name);
    expect(priorityColor(p)).toBe(color);
  });

  it('anything else shows as low', () => {
    expect(priorityColor(7)).toBe('gray');
    expect(priorityName(undefined)).toBe('low');
  });
});

describe('announcement form', () => {
  it('a new one starts low priority and active; an edit starts from the saved one', () => {
    expect(announcementFormOf(null)).toEqual({ title: '', text: '', priority: 3, status: true });
    expect(announcementFormOf(anAnnouncement(2, 'Manutenção', { text: 'Hoje às 22h', priority: 1, status: false }))).toEqual({
      title: 'Manutenção',
      text: 'Hoje às 22h',
      priority: 1,
      status: false,
    });
  });

  it('title and text are required (blank counts as empty)', () => {
    const empty = validateAnnouncementForm({ title: '  ', text: '', priority: 3, status: true });
    expect(empty).toEqual({ title: 'required', text: 'required' });
    expect(hasAnnouncementErrors(empty)).toBe(true);
    const ok = validateAnnouncementForm({ title: 'Aviso', text: 'Corpo', priority: 3, status: true });
    expect(ok).toEqual({});
    expect(hasAnnouncementErrors(ok)).toBe(false);
  });

  it('sends trimmed texts; an edit sends only what changed', () => {
    expect(announcementPayload({ title: '  Aviso ', text: ' Corpo  ', priority: 2, status: false })).toEqual({
      title: 'Aviso',
      text: 'Corpo',
      priority: 2,
      status: false,
    });
    const saved = anAnnouncement(4, 'Aviso', { text: 'Corpo', priority: 2 });
    expect(changedAnnouncementFields(saved, announcementPayload(announcementFormOf(saved)))).toEqual({});
    expect(changedAnnouncementFields(saved, { title: 'Aviso', text: 'Outro', priority: 1, status: false })).toEqual({
      text: 'Outro',
      priority: 1,
      status: false,
    });
  });

  it.each([
    ['foto.png', true],
    ['FOTO.JPG', true],
    ['banner.jpeg', true],
    ['anim.gif', false],
    ['doc.pdf', false],
    ['png', false],
    ['.png', false],
    ['arquivo.png.exe', false],
  ])('an image %s is accepted: %s', (name, ok) => {
    expect(isAcceptedImage({ name })).toBe(ok);
  });
});

describe('who opens /announcements', () => {
  it('super users only; a "no" waits until the user is known to be current', () => {
    expect(superAccess({ super: true }, false)).toBe(true);
    expect(superAccess({ super: false }, false)).toBeNull();
    expect(superAccess({ super: false }, true)).toBe(false);
    expect(superAccess(null, true)).toBeNull();
  });
});

describe('the image address', () => {
  it('is the mediaUrl, versioned by the last change; none without an image', () => {
    const a = withImage(anAnnouncement(3, 'Aviso', { updatedAt: '2026-11-02T10:00:00.000Z' }));
    expect(announcementImageUrl(a)).toBe('/announcements/3/media?v=2026-11-02T10%3A00%3A00.000Z');
    expect(announcementImageUrl(anAnnouncement(3, 'Aviso'))).toBeNull();
  });
});

describe('the popover list and its badge', () => {
  it('lists the active ones in the server order (newest first), each once', () => {
    const pages = [
      page([anAnnouncement(5, 'E'), anAnnouncement(4, 'D', { status: false }), anAnnouncement(3, 'C')], 5, true),
      page([anAnnouncement(3, 'C'), anAnnouncement(1, 'A')], 5),
    ];
    expect(activeAnnouncements(pages).map((a) => a.id)).toEqual([5, 3, 1]);
    expect(activeAnnouncements(undefined)).toEqual([]);
  });

  it('counts the active ones: the server count less the inactive loaded, never less than the active loaded', () => {
    expect(activeAnnouncementsCount(undefined)).toBe(0);
    // a user other than a super user: the server counts active ones only
    expect(activeAnnouncementsCount([page([anAnnouncement(9, 'x'), anAnnouncement(8, 'y')], 45, true)])).toBe(45);
    // a super user: the inactive ones are taken off
    expect(activeAnnouncementsCount([page([anAnnouncement(9, 'x'), anAnnouncement(8, 'y', { status: false })], 2)])).toBe(1);
    expect(activeAnnouncementsCount([page([anAnnouncement(9, 'x')], 0)])).toBe(1);
  });
});

describe('live events on a cached list', () => {
  const user = { isSuper: false, search: '' };
  const root = { isSuper: true, search: '' };
  const cached = () => [page([anAnnouncement(3, 'C'), anAnnouncement(2, 'B')], 3, true), page([anAnnouncement(1, 'A')], 3)];

  it('a deleted one leaves, and the count follows', () => {
    const next = applyAnnouncementEvent(cached(), { action: 'delete', announcementId: 2 }, user);
    expect(ids(next)).toEqual([3, 1]);
    expect(next[0].count).toBe(2);
    expect(applyAnnouncementEvent(cached(), { action: 'delete', announcementId: 99 }, user)).toEqual(cached());
  });

  it('a changed one is replaced in place', () => {
    const next = applyAnnouncementEvent(cached(), { action: 'update', announcement: anAnnouncement(1, 'A2', { priority: 1 }) }, user);
    expect(ids(next)).toEqual([3, 2, 1]);
    expect(next[1].records[0]).toMatchObject({ title: 'A2', priority: 1 });
  });

  it('one that became inactive leaves the list of a user other than a super user; a super user keeps it', () => {
    const off = anAnnouncement(3, 'C', { status: false });
    const forUser = applyAnnouncementEvent(cached(), { action: 'update', announcement: off }, user);
    expect(ids(forUser)).toEqual([2, 1]);
    expect(forUser[0].count).toBe(2);
    const forRoot = applyAnnouncementEvent(cached(), { action: 'update', announcement: off }, root);
    expect(ids(forRoot)).toEqual([3, 2, 1]);
    expect(forRoot[0].records[0].status).toBe(false);
  });

  it('a new one goes on top of the unsearched list; not into a searched one, nor an inactive one to a user', () => {
    const fresh = anAnnouncement(7, 'Novo');
    const next = applyAnnouncementEvent(cached(), { action: 'update', announcement: fresh }, user);
    expect(ids(next)).toEqual([7, 3, 2, 1]);
    expect(next.map((p) => p.count)).toEqual([4, 4]);
    expect(ids(applyAnnouncementEvent(cached(), { action: 'update', announcement: fresh }, { isSuper: true, search: 'abc' }))).toEqual([
      3, 2, 1,
    ]);
    expect(ids(applyAnnouncementEvent(cached(), { action: 'update', announcement: { ...fresh, status: false } }, user))).toEqual([3, 2, 1]);
    expect(ids(applyAnnouncementEvent(cached(), { action: 'update', announcement: { ...fresh, status: false } }, root))).toEqual([
      7, 3, 2, 1,
    ]);
  });
});
