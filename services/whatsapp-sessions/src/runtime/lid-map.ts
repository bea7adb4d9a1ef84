import { Injectable } from '@nestjs/common';
import { LidMapRepository, type LidPair } from './lid-map.repository.js';

export type { LidPair };

/** What this process learned or read lately is answered without a statement this long (other processes' news shows after it). */
const RECENT_MS = 10 * 60_000;
/** LIDs kept in this process's short memory at most (the oldest go first). */
const RECENT_MAX = 50_000;

/**
 * The company's LID map (issue 42 §2): which phone number each LID stands for, as WhatsApp told any of the company's
 * connections (`lid-mapping.update`, `remoteJidAlt`/`participantAlt`, a contact's phone number, history sync). Kept in
 * PostgreSQL per company (every replica and connection reads it); a new pair is announced (`wa.lid.*`) so tickets
 * makes the LID's contact and the number's contact one. A short bounded memory in front: a conversation's messages
 * cost no statement, and a pair told again (every message of a LID-addressed chat carries it) writes nothing.
 */
@Injectable()
export class LidMap {
  private readonly recent = new Map<string, { pn: string; seenAt: number }>();

  constructor(private readonly repository: LidMapRepository) {}

  /** The numbers of these LIDs, where the company knows them. */
  async pnsOf(companyId: number, lids: readonly string[]): Promise<Map<string, string>> {
    const now = Date.now();
    const found = new Map<string, string>();
    const ask: string[] = [];
    for (const lid of new Set(lids)) {
      const seen = this.recent.get(`${companyId}:${lid}`);
      if (seen && now - seen.seenAt < RECENT_MS) found.set(lid, seen.pn);
      else ask.push(lid);
    }
    if (ask.length === 0) return found;
    for (const [lid, pn] of await this.repository.pnsOf(companyId, ask)) {
      found.set(lid, pn);
      this.keep(companyId, lid, pn);
    }
    return found;
  }

  /** WhatsApp told these pairs: kept (and announced) unless this process knows them already, unchanged. */
  async learn(companyId: number, pairs: readonly LidPair[]): Promise<void> {
    const now = Date.now();
    const news = pairs.filter((p) => {
      const seen = this.recent.get(`${companyId}:${p.lid}`);
      return !(seen && seen.pn === p.pn && now - seen.seenAt < RECENT_MS);
    });
    if (news.length === 0) return;
    await this.repository.learn(companyId, news);
    for (const p of news) this.keep(companyId, p.lid, p.pn);
  }

  private keep(companyId: number, lid: string, pn: string): void {
    const key = `${companyId}:${lid}`;
    this.recent.delete(key);
    if (this.recent.size >= RECENT_MAX) this.recent.delete(this.recent.keys().next().value as string);
    this.recent.set(key, { pn, seenAt: Date.now() });
  }
}
