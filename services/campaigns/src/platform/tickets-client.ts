import { Injectable } from '@nestjs/common';
import { signServiceToken } from '@wa/auth';
import type { FileListFiles, TagAudiencePage } from '@wa/contracts';
import { canonicalPhoneNumber } from '@wa/domain';
import { CampaignsEnv } from '../config/env.js';

const TIMEOUT_MS = 10_000;

/** What campaigns asks of tickets (service token): a tag's contacts (an audience without a list) and a file list's files. */
@Injectable()
export class TicketsClient {
  constructor(private readonly env: CampaignsEnv) {}

  /** Every contact of the company carrying the tag, numbers in their one form (a tag not the company's: none). */
  async tagAudience(companyId: number, tagId: number): Promise<Array<{ number: string; name: string; email: string }>> {
    const people = new Map<string, { number: string; name: string; email: string }>();
    let afterId: number | null = 0;
    while (afterId !== null) {
      const page: TagAudiencePage | null = await this.get<TagAudiencePage>(
        `/internal/companies/${companyId}/tags/${tagId}/contacts?afterId=${afterId}&limit=1000`,
      );
      if (!page) return [];
      for (const c of page.contacts) {
        const number = canonicalPhoneNumber(c.number);
        if (number && !people.has(number)) people.set(number, { number, name: c.name ?? '', email: c.email ?? '' });
      }
      afterId = page.nextAfterId;
    }
    return [...people.values()];
  }

  /** Whether the tag is the company's (asks one contact of it). */
  async tagExists(companyId: number, tagId: number): Promise<boolean> {
    return (await this.get<TagAudiencePage>(`/internal/companies/${companyId}/tags/${tagId}/contacts?afterId=0&limit=1`)) !== null;
  }

  /** The file list's files (null: not the company's, or gone). */
  fileList(companyId: number, id: number): Promise<FileListFiles | null> {
    return this.get<FileListFiles>(`/internal/companies/${companyId}/file-lists/${id}`);
  }

  /** null on 404; throws on anything else (tickets away: the caller tries again later). */
  private async get<T>(path: string): Promise<T | null> {
    const res = await fetch(`${this.env.TICKETS_URL}${path}`, {
      headers: { authorization: `Bearer ${signServiceToken('campaigns', this.env.JWT_SECRET)}` },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (res.status === 404) return null;
    if (res.status !== 200) throw new Error(`tickets answered ${res.status} for ${path}`);
    return (await res.json()) as T;
  }
}
