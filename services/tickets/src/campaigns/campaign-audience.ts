import { Controller, Get, Injectable, Param, ParseIntPipe, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { InternalOnly } from '@wa/auth';
import type { FileListFiles, TagAudiencePage } from '@wa/contracts';
import { DomainError, isMediaKey, MediaStorage } from '@wa/server-kit';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { DataSource } from 'typeorm';
import {
  SELECT_COMPANY_FILE_LIST,
  SELECT_COMPANY_TAG,
  SELECT_FILE_LIST_FILES,
  SELECT_TAG_CONTACTS_PAGE,
} from './campaign-audience.queries.js';

const MAX_ID = 2_147_483_647;
export const TAG_AUDIENCE_PAGE_MAX = 1000;
export const TAG_AUDIENCE_PAGE_DEFAULT = 500;

export class TagAudienceQuery {
  /** the last contact id of the previous page; none: from the start */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_ID)
  afterId?: number;
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(TAG_AUDIENCE_PAGE_MAX)
  limit?: number;
}

type MediaKind = FileListFiles['files'][number]['mediaType'];

/** How a campaign sends a file: by the kind of its type (what the bytes were when uploaded). */
export function mediaKindOf(mimetype: string): MediaKind {
  const kind = mimetype.split('/')[0];
  return kind === 'image' || kind === 'audio' || kind === 'video' ? kind : 'application';
}

const isDbId = (n: number) => Number.isSafeInteger(n) && n >= 1 && n <= MAX_ID;

/**
 * What campaigns reads of tickets to send (spec 02 §4): a tag's audience (the company's contacts whose tickets
 * carry the tag) page by page, and a file list's files with their storage keys. Another company's tag or
 * list is not found.
 */
@Injectable()
export class CampaignAudience {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly storage: MediaStorage,
  ) {}

  async tagContacts(companyId: number, tagId: number, q: TagAudienceQuery): Promise<TagAudiencePage> {
    if (!isDbId(companyId) || !isDbId(tagId)) throw new DomainError('ERR_NO_TAG_FOUND');
    const [tag] = (await this.db.query(SELECT_COMPANY_TAG, [companyId, tagId])) as Array<{ id: number }>;
    if (!tag) throw new DomainError('ERR_NO_TAG_FOUND');
    const limit = q.limit ?? TAG_AUDIENCE_PAGE_DEFAULT;
    const contacts = (await this.db.query(SELECT_TAG_CONTACTS_PAGE, [companyId, tagId, q.afterId ?? 0, limit])) as Array<{
      id: number;
      name: string;
      number: string;
      email: string;
    }>;
    const last = contacts[contacts.length - 1];
    return { contacts, nextAfterId: contacts.length === limit && last ? last.id : null };
  }

  async fileListFiles(companyId: number, id: number): Promise<FileListFiles> {
    const notFound = () => new DomainError('ERR_NOT_FOUND', {}, 'File list not found.');
    if (!isDbId(companyId) || !isDbId(id)) throw notFound();
    const [list] = (await this.db.query(SELECT_COMPANY_FILE_LIST, [companyId, id])) as Array<{ id: number; name: string; message: string }>;
    if (!list) throw notFound();
    const options = (await this.db.query(SELECT_FILE_LIST_FILES, [companyId, id])) as Array<{
      name: string;
      path: string;
      mediaType: string | null;
    }>;
    const files: FileListFiles['files'] = [];
    for (const o of options) {
      if (!isMediaKey(o.path)) continue;
      // a file gone from the storage cannot be sent: left out
      const stored = await this.storage.head(o.path);
      if (!stored) continue;
      const mimetype = o.mediaType ?? 'application/octet-stream';
      files.push({
        name: o.name,
        key: o.path,
        mimetype,
        fileName: o.path.split('/').pop() as string,
        size: stored.size,
        mediaType: mediaKindOf(mimetype),
      });
    }
    return { id: list.id, name: list.name, message: list.message, files };
  }
}

/** Only campaigns asks (a service token); the gateway routes no `/internal` path. */
@ApiExcludeController()
@Controller('internal/companies')
export class CampaignAudienceController {
  constructor(private readonly audience: CampaignAudience) {}

  @InternalOnly()
  @Get(':companyId/tags/:tagId/contacts')
  tagContacts(
    @Param('companyId', ParseIntPipe) companyId: number,
    @Param('tagId', ParseIntPipe) tagId: number,
    @Query() q: TagAudienceQuery,
  ): Promise<TagAudiencePage> {
    return this.audience.tagContacts(companyId, tagId, q);
  }

  @InternalOnly()
  @Get(':companyId/file-lists/:id')
  fileListFiles(@Param('companyId', ParseIntPipe) companyId: number, @Param('id', ParseIntPipe) id: number): Promise<FileListFiles> {
    return this.audience.fileListFiles(companyId, id);
  }
}
