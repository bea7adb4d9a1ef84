import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sessionCommandSubject, type ProfilePictureCommand, type ProfilePictureResult } from '@wa/contracts';
import { EventBus, request } from '@wa/event-bus';
import type { Job } from 'bullmq';
import { DataSource } from 'typeorm';
import { ContactEntity } from '../../../database/entities/index.js';
import { Outbox } from '../../../outbox/outbox.service.js';
import { contactUpdated, contactView } from '../contacts.service.js';
import { CONTACT_PICTURES, KEEP_CONTACT_PICTURES, TOUCH_CONTACT_PICTURES } from './contact-pictures.queries.js';
import { CONTACT_PICTURES_QUEUE, ContactPictures, PICTURE_FRESH_MS, type ContactPicturesJob } from './contact-pictures.js';

/** How long the session's holder may take to answer (WhatsApp's own query times out within this). */
const ASK_TIMEOUT_MS = 15_000;

type Reply = { ok: true; result?: ProfilePictureResult } | { ok: false; code?: string };

/** The session could not answer now (not running, not connected, WhatsApp slow): the job is tried again later. */
class SessionAway extends Error {
  constructor(why: string) {
    super(`profile picture not asked: ${why}`);
    this.name = 'SessionAway';
  }
}

/** Sessions asked at once by one job. */
const ASKED_AT_ONCE = 10;

type Row = Pick<ContactEntity, 'id' | 'companyId' | 'number' | 'profilePicUrl' | 'profilePicCheckedAt'>;

/**
 * Asks contacts' profile pictures of the sessions of their connections (the `profilePicture` command), several at
 * once, and keeps them with the time asked: one read and one write for the job's contacts, new or changed pictures
 * announced as `contact.updated` through the outbox in the same transaction. A contact asked less than a day ago is
 * skipped; no picture (or a hidden one) is kept as '' with its time, not asked again for a day. A session that is
 * not up fails the job after what was answered is kept (the retry, with back-off, skips those); after the last try
 * the next refresh asks. The daily refresh (`refresh` jobs) lists the contacts to ask.
 */
@Processor(CONTACT_PICTURES_QUEUE, { concurrency: 2 })
export class ContactPictureJob extends WorkerHost {
  private readonly log = new Logger(ContactPictureJob.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly bus: EventBus,
    private readonly outbox: Outbox,
    private readonly pictures: ContactPictures,
  ) {
    super();
  }

  async process(job: Job<ContactPicturesJob | Record<string, never>>): Promise<void> {
    if (job.name === 'refresh') {
      await this.pictures.refresh();
      return;
    }
    const asked = (job.data as ContactPicturesJob).contacts ?? [];
    if (asked.length === 0) return;
    const rows = (await this.db.query(CONTACT_PICTURES, [asked.map((c) => c.contactId), asked.map((c) => c.companyId)])) as Row[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const due = asked.flatMap((c) => {
      const row = byId.get(c.contactId);
      return row?.number && !fresh(row.profilePicCheckedAt) ? [{ ...c, row }] : [];
    });
    const same: Row[] = [];
    const changed: Array<{ row: Row; url: string }> = [];
    let away: SessionAway | undefined;
    for (let i = 0; i < due.length; i += ASKED_AT_ONCE) {
      await Promise.all(
        due.slice(i, i + ASKED_AT_ONCE).map(async ({ row, connectionId }) => {
          try {
            const url = await this.ask(row, connectionId);
            if (url === null || url === row.profilePicUrl) same.push(row);
            else changed.push({ row, url });
          } catch (err) {
            if (!(err instanceof SessionAway)) throw err;
            away ??= err;
          }
        }),
      );
    }
    await this.keep(same, changed);
    if (away) throw away;
  }

  /** The session's answer: the picture's address ('' for none), null when the contact cannot be asked (not asked again today). */
  private async ask(row: Row, connectionId: number): Promise<string | null> {
    let reply: Reply;
    try {
      reply = await request<Reply>(
        this.bus,
        sessionCommandSubject(connectionId),
        { action: 'profilePicture', to: row.number } satisfies ProfilePictureCommand,
        { timeoutMs: ASK_TIMEOUT_MS },
      );
    } catch (err) {
      throw new SessionAway((err as Error)?.message ?? 'no answer');
    }
    if (reply.ok) return reply.result?.url ?? '';
    if (reply.code === 'ERR_VALIDATION') {
      this.log.warn({ contactId: row.id, connectionId }, 'profile picture refused for this contact; not asked again today');
      return null;
    }
    throw new SessionAway(reply.code ?? 'refused');
  }

  /** The answers: the same picture only moves its time; new ones are kept and announced (one transaction). */
  private async keep(same: Row[], changed: Array<{ row: Row; url: string }>): Promise<void> {
    if (same.length > 0) await this.db.query(TOUCH_CONTACT_PICTURES, [same.map((r) => r.id), same.map((r) => r.companyId)]);
    if (changed.length === 0) return;
    const outboxIds = await this.db.transaction(async (tx) => {
      const raw: unknown = await tx.query(KEEP_CONTACT_PICTURES, [
        changed.map((c) => c.row.id),
        changed.map((c) => c.row.companyId),
        changed.map((c) => c.url),
      ]);
      // the driver answers an UPDATE … RETURNING as [rows, count]
      const updated = (Array.isArray(raw) && Array.isArray(raw[0]) ? raw[0] : raw) as ContactEntity[];
      return this.outbox.add(
        tx,
        updated.map((c) => contactUpdated(contactView(c))),
      );
    });
    if (outboxIds.length > 0) await this.outbox.flush(outboxIds);
  }
}

/** Asked less than a day ago. */
function fresh(checkedAt: Date | string | null): boolean {
  return checkedAt !== null && Date.now() - new Date(checkedAt).getTime() < PICTURE_FRESH_MS;
}
