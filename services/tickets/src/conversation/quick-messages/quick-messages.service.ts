import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { QuickMessageDto, QuickMessagesPage } from '@wa/contracts';
import { DomainError, isMediaKey, MediaStorage, type UploadedDiskFile, attachFile } from '@wa/server-kit';
import { mediaUrlOf } from '../core/ticket-view.js';
import { Brackets, DataSource, type SelectQueryBuilder } from 'typeorm';
import { QuickMessageEntity } from '../../database/entities/index.js';
import { likeEscaped } from '@wa/database';
import type { Caller } from '../../identity/caller.service.js';
import type { CreateQuickMessageDto, ListQuickMessagesQueryDto, UpdateQuickMessageDto } from './quick-messages.dto.js';
import { usableQuickMessages } from './quick-messages.queries.js';

export const QUICK_MESSAGES_PAGE_SIZE = 20;

/** `/quick-messages/list` feeds the chat input's suggestions: the first this many by shortcode */
export const QUICK_MESSAGES_LIST_LIMIT = 500;

const view = (q: QuickMessageEntity): QuickMessageDto => ({
  id: q.id,
  shortcode: q.shortcode,
  message: q.message,
  geral: q.geral,
  isMedia: q.isMedia,
  // a file of ours is served at /media/<key> (the company's signed-in users only)
  mediaPath: mediaUrlOf(q.mediaPath),
  mediaName: q.mediaName,
  userId: q.userId,
  companyId: q.companyId,
});

/**
 * Quick replies (spec 02): a caller uses their own and the company's shared (`geral`) ones; admins see the
 * company's all. Only the author or an admin changes or deletes one. Scoped to the caller's company.
 */
@Injectable()
export class QuickMessagesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly storage: MediaStorage,
  ) {}

  private usable(caller: Caller): SelectQueryBuilder<QuickMessageEntity> {
    return usableQuickMessages(this.db, caller.companyId, caller.isAdmin ? null : caller.id);
  }

  async page(caller: Caller, query: ListQuickMessagesQueryDto): Promise<QuickMessagesPage> {
    const qb = this.usable(caller);
    const term = query.searchParam?.trim();
    if (term)
      qb.andWhere(
        new Brackets((w) =>
          w
            .where(`lower(q.shortcode) LIKE :term ESCAPE '\\'`, { term: `%${likeEscaped(term.toLowerCase())}%` })
            .orWhere(`lower(q.message) LIKE :term ESCAPE '\\'`),
        ),
      );
    const rows = await qb
      .orderBy('lower(q.shortcode)', 'ASC')
      .addOrderBy('q.id', 'ASC')
      .offset(((query.pageNumber ?? 1) - 1) * QUICK_MESSAGES_PAGE_SIZE)
      .limit(QUICK_MESSAGES_PAGE_SIZE + 1)
      .getMany();
    return { records: rows.slice(0, QUICK_MESSAGES_PAGE_SIZE).map(view), hasMore: rows.length > QUICK_MESSAGES_PAGE_SIZE };
  }

  async list(caller: Caller): Promise<QuickMessageDto[]> {
    const rows = await this.usable(caller)
      .orderBy('lower(q.shortcode)', 'ASC')
      .addOrderBy('q.id', 'ASC')
      .limit(QUICK_MESSAGES_LIST_LIMIT)
      .getMany();
    return rows.map(view);
  }

  async get(caller: Caller, id: number): Promise<QuickMessageDto> {
    return view(await this.find(caller, id));
  }

  async create(caller: Caller, dto: CreateQuickMessageDto): Promise<QuickMessageDto> {
    const repo = this.db.getRepository(QuickMessageEntity);
    const saved = await repo.save(
      repo.create({
        companyId: caller.companyId,
        userId: caller.id,
        shortcode: dto.shortcode.trim(),
        message: dto.message ?? '',
        geral: dto.geral ?? false,
        isMedia: dto.isMedia ?? false,
        // a file comes only by upload (POST /quick-messages/{id}/media-upload): a path a client sends is not kept
        mediaPath: null,
      }),
    );
    return view(saved);
  }

  async update(caller: Caller, id: number, dto: UpdateQuickMessageDto): Promise<QuickMessageDto> {
    const current = await this.mine(caller, id);
    const repo = this.db.getRepository(QuickMessageEntity);
    if (dto.shortcode !== undefined) current.shortcode = dto.shortcode.trim();
    if (dto.message !== undefined) current.message = dto.message;
    if (dto.geral !== undefined) current.geral = dto.geral;
    if (dto.isMedia !== undefined) current.isMedia = dto.isMedia;
    return view(await repo.save(current));
  }

  async remove(caller: Caller, id: number): Promise<void> {
    const row = await this.mine(caller, id);
    await this.db.getRepository(QuickMessageEntity).delete({ id, companyId: caller.companyId });
    await this.dropFile(row.mediaPath);
  }

  /**
   * The quick reply's attachment (POST /quick-messages/{id}/media-upload): checked by its bytes, stored,
   * replacing the one it had. The chat sends it with the reply's text as caption.
   */
  async attachMedia(caller: Caller, id: number, file: UploadedDiskFile | undefined): Promise<QuickMessageDto> {
    const row = await this.mine(caller, id);
    await attachFile(this.storage, caller.companyId, file, row.mediaPath, (key, checked) =>
      this.db
        .getRepository(QuickMessageEntity)
        .update({ id, companyId: caller.companyId }, { isMedia: true, mediaPath: key, mediaName: checked.fileName }),
    );
    return view(await this.find(caller, id));
  }

  /** DELETE /quick-messages/{id}/media-upload: the attachment removed. */
  async detachMedia(caller: Caller, id: number): Promise<QuickMessageDto> {
    const row = await this.mine(caller, id);
    await this.db
      .getRepository(QuickMessageEntity)
      .update({ id, companyId: caller.companyId }, { isMedia: false, mediaPath: null, mediaName: null });
    await this.dropFile(row.mediaPath);
    return view(await this.find(caller, id));
  }

  private async dropFile(mediaPath: string | null): Promise<void> {
    if (mediaPath && isMediaKey(mediaPath)) await this.storage.delete(mediaPath).catch(() => undefined);
  }

  private async find(caller: Caller, id: number): Promise<QuickMessageEntity> {
    const row = Number.isSafeInteger(id) ? await this.usable(caller).andWhere('q.id = :id', { id }).getOne() : null;
    if (!row) throw new DomainError('ERR_NO_QUICK_MESSAGE_FOUND');
    return row;
  }

  /** One the caller may change: theirs, or any of the company's for an admin. */
  private async mine(caller: Caller, id: number): Promise<QuickMessageEntity> {
    const row = await this.find(caller, id);
    if (row.userId !== caller.id && !caller.isAdmin) throw new DomainError('ERR_NO_PERMISSION', {}, 'Acesso não permitido');
    return row;
  }
}
