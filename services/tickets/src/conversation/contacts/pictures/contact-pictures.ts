import { InjectQueue } from '@nestjs/bullmq';
import { countJobsOf } from '@wa/server-kit';
import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { STALE_PICTURES } from './contact-pictures.queries.js';

export const CONTACT_PICTURES_QUEUE = 'contact-pictures';

/** A contact whose picture is asked, and the connection whose session is asked. */
export interface ContactPictureData {
  contactId: number;
  companyId: number;
  connectionId: number;
}

/** What a picture job carries: the contacts of one inbound batch (or one round of the refresh), asked together. */
export interface ContactPicturesJob {
  contacts: ContactPictureData[];
}

/** Contacts per job: a round of the refresh is cut into jobs of this many. */
export const PICTURES_PER_JOB = 100;
/**
 * New contacts are gathered this long (or until PICTURES_PER_JOB) before their job is added: a busy minute's new
 * customers are a few jobs, not one per inbound batch (a job per batch of the bot bench's 1,000 new customers cost
 * tickets 0.9 ms of CPU a contact, beside the customers' first exchanges with the bot).
 */
export const PICTURE_GATHER_MS = 1000;

/** A picture asked less than this long ago is not asked again (a refusal, no picture, counts as an answer). */
export const PICTURE_FRESH_MS = 24 * 60 * 60_000;
/** Tries of a job while the session is not up (1, 2, 4, 8, 16 min apart: about half an hour), then the next refresh. */
export const PICTURE_ATTEMPTS = 6;
export const PICTURE_BACKOFF_MS = 60_000;
/** The daily refresh: contacts of conversations touched in the last this many days. */
export const PICTURE_REFRESH_DAYS = 3;
/** When the refresh runs: every day at 04:00 UTC (01:00 in São Paulo), the quiet hour. */
export const PICTURE_REFRESH_CRON = '0 4 * * *';
/** Contacts read per round of the refresh, and most contacts one refresh asks for. */
const REFRESH_BATCH = 1000;
const REFRESH_MAX = 50_000;

/**
 * Contacts' profile pictures (spec 01: Contact.profilePicUrl), fetched from WhatsApp through the session of the
 * connection the contact wrote on, in the background (BullMQ): a new contact's picture is asked once its first
 * message is stored (the inbound path only hands the ids over, without waiting), and every day the contacts of
 * conversations touched in the last PICTURE_REFRESH_DAYS days whose picture is older than a day are asked again.
 * A job asks for several contacts at once and skips those asked less than a day ago.
 */
@Injectable()
export class ContactPictures implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly log = new Logger(ContactPictures.name);
  /** new contacts waiting for their job (by contact id: a contact of two batches is asked once) */
  private readonly gathered = new Map<number, ContactPictureData>();
  private gathering: NodeJS.Timeout | undefined;

  constructor(
    @InjectQueue(CONTACT_PICTURES_QUEUE) private readonly queue: Queue<ContactPicturesJob | Record<string, never>>,
    @InjectDataSource() private readonly db: DataSource,
  ) {
    countJobsOf(this.queue);
  }

  /** The daily refresh's scheduler (one per queue whichever replica declares it). Never fails the start. */
  async onApplicationBootstrap(): Promise<void> {
    await this.queue
      .upsertJobScheduler('contact-pictures-refresh', { pattern: PICTURE_REFRESH_CRON }, { name: 'refresh', data: {} })
      .catch((err: unknown) => this.log.warn({ err: (err as Error)?.message }, 'picture refresh not scheduled; the next start will'));
  }

  /** What is gathered goes to its job before the queue closes (one lost on a crash is asked by the daily refresh). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.addGathered();
  }

  /**
   * Asks for these contacts' pictures in the background, with the other new contacts of the next PICTURE_GATHER_MS;
   * resolves at once and never fails the caller (a job not added, or lost in a crash before it was, is added by the
   * daily refresh: a contact never asked is stale).
   */
  fetchSoon(contacts: ContactPictureData[]): void {
    if (contacts.length === 0) return;
    for (const c of contacts) this.gathered.set(c.contactId, c);
    if (this.gathered.size >= PICTURES_PER_JOB) void this.addGathered();
    else if (!this.gathering) {
      this.gathering = setTimeout(() => void this.addGathered(), PICTURE_GATHER_MS);
      this.gathering.unref();
    }
  }

  private async addGathered(): Promise<void> {
    clearTimeout(this.gathering);
    this.gathering = undefined;
    if (this.gathered.size === 0) return;
    const contacts = [...this.gathered.values()];
    this.gathered.clear();
    await this.add(contacts).catch((err: unknown) =>
      this.log.warn({ err: (err as Error)?.message, count: contacts.length }, 'picture jobs not added; the daily refresh will'),
    );
  }

  /**
   * One job per PICTURES_PER_JOB contacts (the new contacts gathered are one job: one read, one write and one
   * announcement for the lot, not a job each beside the messages being stored).
   */
  private add(contacts: ContactPictureData[]): Promise<unknown> {
    const jobs = [];
    for (let i = 0; i < contacts.length; i += PICTURES_PER_JOB) {
      jobs.push({
        name: 'fetch',
        data: {
          contacts: contacts
            .slice(i, i + PICTURES_PER_JOB)
            .map((c) => ({ contactId: c.contactId, companyId: c.companyId, connectionId: c.connectionId })),
        },
        opts: {
          attempts: PICTURE_ATTEMPTS,
          backoff: { type: 'exponential', delay: PICTURE_BACKOFF_MS },
          removeOnComplete: true,
          removeOnFail: true,
        },
      });
    }
    return this.queue.addBulk(jobs);
  }

  /**
   * The daily refresh: jobs for the contacts of recent conversations whose picture is older than a day (of one
   * company when given, of all otherwise). Answers how many contacts were asked for.
   */
  async refresh(companyId?: number): Promise<number> {
    let after = 0;
    let added = 0;
    while (added < REFRESH_MAX) {
      const rows: ContactPictureData[] = await this.db.query(STALE_PICTURES, [
        after,
        PICTURE_REFRESH_DAYS,
        PICTURE_FRESH_MS,
        REFRESH_BATCH,
        companyId ?? null,
      ]);
      if (rows.length === 0) break;
      await this.add(rows);
      added += rows.length;
      after = (rows[rows.length - 1] as ContactPictureData).contactId;
      if (rows.length < REFRESH_BATCH) break;
    }
    this.log.log({ added }, 'profile pictures: daily refresh asked');
    return added;
  }
}
