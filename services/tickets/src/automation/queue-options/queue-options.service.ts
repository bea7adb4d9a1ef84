import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { QueueOptionDto } from '@wa/contracts';
import { isUniqueViolation } from '@wa/database';
import { DomainError, isMediaKey, MediaStorage, type UploadedDiskFile, attachFile, dropFiles } from '@wa/server-kit';
import { DataSource, IsNull } from 'typeorm';
import { QueueEntity, QueueOptionEntity } from '../../database/entities/index.js';
import type { Caller } from '../../identity/caller.service.js';
import { mediaUrlOf } from '../../conversation/core/ticket-view.js';
import type { CreateQueueOptionDto, ListQueueOptionsQuery, UpdateQueueOptionDto } from './queue-options.dto.js';
import { BRANCH_FILES, MAX_OPTIONS_PER_LEVEL, SELECT_OPTIONS_OF_LEVEL } from './queue-options.queries.js';

function optionView(o: QueueOptionEntity, children: number): QueueOptionDto {
  return {
    id: o.id,
    queueId: o.queueId,
    parentId: o.parentId,
    title: o.title,
    message: o.message,
    option: o.option,
    children,
    mediaPath: mediaUrlOf(o.mediaPath),
    mediaName: o.mediaName,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
  };
}

const taken = () =>
  new DomainError(
    'ERR_VALIDATION',
    { details: [{ field: 'option', messages: ['Esta opção já existe neste nível'] }] },
    'This option is already on this level.',
  );

/** A queue's chatbot tree (spec 02 "Queue options"), scoped by the caller's company. */
@Injectable()
export class QueueOptionsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly storage: MediaStorage,
  ) {}

  /** One level: the first (no parentId) or the options under parentId, by option number. */
  async list(caller: Caller, q: ListQueueOptionsQuery): Promise<QueueOptionDto[]> {
    await this.queueOf(caller, q.queueId);
    if (q.parentId !== undefined) await this.mustFind(caller, q.parentId, q.queueId);
    const rows: Array<QueueOptionEntity & { children: number }> = await this.db.query(SELECT_OPTIONS_OF_LEVEL, [
      caller.companyId,
      q.queueId,
      q.parentId ?? null,
    ]);
    return rows.map((r) => optionView(r, r.children));
  }

  async create(caller: Caller, dto: CreateQueueOptionDto): Promise<QueueOptionDto> {
    await this.queueOf(caller, dto.queueId);
    const parentId = dto.parentId ?? null;
    if (parentId !== null) await this.mustFind(caller, parentId, dto.queueId, 'parentId');
    const repo = this.db.getRepository(QueueOptionEntity);
    if (
      (await repo.countBy({ companyId: caller.companyId, queueId: dto.queueId, parentId: parentId ?? IsNull() })) >= MAX_OPTIONS_PER_LEVEL
    ) {
      throw new DomainError('ERR_VALIDATION', {
        details: [{ field: 'option', messages: [`No máximo ${MAX_OPTIONS_PER_LEVEL} opções por nível`] }],
      });
    }
    try {
      const saved = await repo.save(
        repo.create({
          companyId: caller.companyId,
          queueId: dto.queueId,
          parentId,
          title: dto.title,
          message: dto.message ?? '',
          option: dto.option,
        }),
      );
      return optionView(saved, 0);
    } catch (err) {
      if (isUniqueViolation(err, 'queue_options_level_option')) throw taken();
      throw err;
    }
  }

  async update(caller: Caller, id: number, dto: UpdateQueueOptionDto): Promise<QueueOptionDto> {
    const option = await this.mustFind(caller, id);
    Object.assign(option, {
      ...(dto.title !== undefined ? { title: dto.title } : {}),
      ...(dto.message !== undefined ? { message: dto.message } : {}),
      ...(dto.option !== undefined ? { option: dto.option } : {}),
    });
    try {
      const saved = await this.db.getRepository(QueueOptionEntity).save(option);
      return optionView(saved, await this.db.getRepository(QueueOptionEntity).countBy({ parentId: saved.id }));
    } catch (err) {
      if (isUniqueViolation(err, 'queue_options_level_option')) throw taken();
      throw err;
    }
  }

  /** Removes the option and everything under it (and their files). */
  async remove(caller: Caller, id: number): Promise<void> {
    await this.mustFind(caller, id);
    const files = await this.db.transaction(async (tx) => {
      const owned: Array<{ path: string }> = await tx.query(BRANCH_FILES, [id, caller.companyId]);
      await tx.getRepository(QueueOptionEntity).delete({ id, companyId: caller.companyId });
      return owned.map((o) => o.path).filter(isMediaKey);
    });
    await dropFiles(this.storage, files);
  }

  /** The option's file (POST /queue-options/{id}/media-upload, multipart `file`), sent with its message. */
  async attachMedia(caller: Caller, id: number, file: UploadedDiskFile | undefined): Promise<QueueOptionDto> {
    const option = await this.mustFind(caller, id);
    await attachFile(this.storage, caller.companyId, file, option.mediaPath, (key, checked) =>
      this.db.getRepository(QueueOptionEntity).update({ id, companyId: caller.companyId }, { mediaPath: key, mediaName: checked.fileName }),
    );
    return this.view(caller, id);
  }

  /** DELETE /queue-options/{id}/media-upload: the option's file removed. */
  async detachMedia(caller: Caller, id: number): Promise<QueueOptionDto> {
    const option = await this.mustFind(caller, id);
    await this.db.getRepository(QueueOptionEntity).update({ id, companyId: caller.companyId }, { mediaPath: null, mediaName: null });
    if (option.mediaPath && isMediaKey(option.mediaPath)) await dropFiles(this.storage, [option.mediaPath]);
    return this.view(caller, id);
  }

  private async view(caller: Caller, id: number): Promise<QueueOptionDto> {
    const option = await this.mustFind(caller, id);
    return optionView(option, await this.db.getRepository(QueueOptionEntity).countBy({ parentId: id }));
  }

  private async queueOf(caller: Caller, queueId: number): Promise<QueueEntity> {
    const queue = Number.isSafeInteger(queueId)
      ? await this.db.getRepository(QueueEntity).findOneBy({ id: queueId, companyId: caller.companyId })
      : null;
    if (!queue) throw new DomainError('ERR_NOT_FOUND', {}, 'Queue not found');
    return queue;
  }

  private async mustFind(caller: Caller, id: number, queueId?: number, field?: string): Promise<QueueOptionEntity> {
    const option = Number.isSafeInteger(id)
      ? await this.db.getRepository(QueueOptionEntity).findOneBy({ id, companyId: caller.companyId })
      : null;
    if (!option || (queueId !== undefined && option.queueId !== queueId)) {
      if (field) throw new DomainError('ERR_VALIDATION', { details: [{ field, messages: ['Não é uma opção desta fila'] }] });
      throw new DomainError('ERR_NOT_FOUND', {}, 'Queue option not found');
    }
    return option;
  }
}
