import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { TicketSubjects, type QueueChangedEvent, type QueueDeletedEvent, type QueueDto } from '@wa/contracts';
import { assertPlanRoom, PlanLimitsClient } from '@wa/auth';
import { DomainError, isMediaKey, MediaStorage, workingDaysOf, type UploadedDiskFile, attachFile, dropFiles } from '@wa/server-kit';
import { isUniqueViolation } from '@wa/database';
import { DataSource, type EntityManager } from 'typeorm';
import { PromptEntity, QueueEntity, QueueIntegrationEntity } from '../../database/entities/index.js';
import type { Caller } from '../../identity/caller.service.js';
import { mediaUrlOf } from '../core/ticket-view.js';
import { Outbox } from '../../outbox/outbox.service.js';
import type { CreateQueueDto, UpdateQueueDto } from './queues.dto.js';
import { LOCK_COMPANY_QUEUES, SELECT_QUEUE_FILES } from './queues.queries.js';

const MAX_QUEUES_LISTED = 500;

export function queueView(q: QueueEntity): QueueDto {
  return {
    id: q.id,
    companyId: q.companyId,
    name: q.name,
    color: q.color,
    greetingMessage: q.greetingMessage,
    outOfHoursMessage: q.outOfHoursMessage,
    orderQueue: q.orderQueue,
    mediaPath: mediaUrlOf(q.mediaPath),
    mediaName: q.mediaName,
    schedules: q.schedules ?? [],
    promptId: q.promptId ?? null,
    integrationId: q.integrationId ?? null,
    createdAt: q.createdAt.toISOString(),
    updatedAt: q.updatedAt.toISOString(),
  };
}

@Injectable()
export class QueuesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly outbox: Outbox,
    private readonly storage: MediaStorage,
    private readonly planLimits: PlanLimitsClient,
  ) {}

  async list(caller: Caller): Promise<QueueDto[]> {
    const rows = await this.db
      .getRepository(QueueEntity)
      .find({ where: { companyId: caller.companyId }, order: { orderQueue: 'ASC', name: 'ASC' }, take: MAX_QUEUES_LISTED });
    return rows.map(queueView);
  }

  async get(caller: Caller, id: number): Promise<QueueDto> {
    return queueView(await this.mustFind(caller, id));
  }

  async create(caller: Caller, dto: CreateQueueDto): Promise<QueueDto> {
    const limits = await this.planLimits.of(caller.companyId);
    return this.save(caller, async (tx) => {
      // the plan's count of queues, checked under the company's lock
      await tx.query(LOCK_COMPANY_QUEUES, [caller.companyId]);
      assertPlanRoom(limits, 'queues', await tx.getRepository(QueueEntity).countBy({ companyId: caller.companyId }));
      return tx.getRepository(QueueEntity).save(
        tx.getRepository(QueueEntity).create({
          companyId: caller.companyId,
          name: dto.name.trim(),
          color: dto.color,
          greetingMessage: dto.greetingMessage ?? '',
          outOfHoursMessage: dto.outOfHoursMessage ?? '',
          orderQueue: dto.orderQueue ?? null,
          schedules: workingDaysOf(dto.schedules),
          promptId: await this.ownedRef(tx, caller, PromptEntity, 'promptId', dto.promptId),
          integrationId: await this.ownedRef(tx, caller, QueueIntegrationEntity, 'integrationId', dto.integrationId),
        }),
      );
    });
  }

  /** A prompt or integration id given for a queue: one of the company's own (ERR_VALIDATION otherwise), or none. */
  private async ownedRef(
    tx: EntityManager,
    caller: Caller,
    entity: typeof PromptEntity | typeof QueueIntegrationEntity,
    field: 'promptId' | 'integrationId',
    id: number | null | undefined,
  ): Promise<number | null> {
    if (id === undefined || id === null) return null;
    if (!(await tx.getRepository<{ id: number; companyId: number }>(entity).existsBy({ id, companyId: caller.companyId }))) {
      throw new DomainError('ERR_VALIDATION', { details: [{ field, messages: ['not found'] }] }, `${field} not found`);
    }
    return id;
  }

  async update(caller: Caller, id: number, dto: UpdateQueueDto): Promise<QueueDto> {
    const queue = await this.mustFind(caller, id);
    return this.save(caller, async (tx) => {
      Object.assign(queue, {
        ...(dto.name !== undefined ? { name: dto.name.trim() } : {}),
        ...(dto.color !== undefined ? { color: dto.color } : {}),
        ...(dto.greetingMessage !== undefined ? { greetingMessage: dto.greetingMessage } : {}),
        ...(dto.outOfHoursMessage !== undefined ? { outOfHoursMessage: dto.outOfHoursMessage } : {}),
        ...(dto.orderQueue !== undefined ? { orderQueue: dto.orderQueue } : {}),
        ...(dto.schedules !== undefined ? { schedules: workingDaysOf(dto.schedules) } : {}),
        ...(dto.promptId !== undefined ? { promptId: await this.ownedRef(tx, caller, PromptEntity, 'promptId', dto.promptId) } : {}),
        ...(dto.integrationId !== undefined
          ? { integrationId: await this.ownedRef(tx, caller, QueueIntegrationEntity, 'integrationId', dto.integrationId) }
          : {}),
      });
      return tx.getRepository(QueueEntity).save(queue);
    });
  }

  async remove(caller: Caller, id: number): Promise<void> {
    await this.mustFind(caller, id);
    const { ids, files } = await this.db.transaction(async (tx) => {
      // its file and its options' files go once the rows are gone
      const owned: Array<{ path: string }> = await tx.query(SELECT_QUEUE_FILES, [id, caller.companyId]);
      await tx.getRepository(QueueEntity).delete({ id, companyId: caller.companyId });
      const event: QueueDeletedEvent = { companyId: caller.companyId, queueId: id };
      const outboxIds = await this.outbox.add(tx, [
        { subject: TicketSubjects.queueDeleted(caller.companyId, id), msgId: `queue-deleted:${id}`, payload: event },
      ]);
      return { ids: outboxIds, files: owned.map((o) => o.path).filter(isMediaKey) };
    });
    await this.outbox.flush(ids);
    await dropFiles(this.storage, files);
  }

  /** The queue's file (POST /queue/{id}/media-upload, multipart `file`), replacing the one it had. */
  async attachMedia(caller: Caller, id: number, file: UploadedDiskFile | undefined): Promise<QueueDto> {
    const queue = await this.mustFind(caller, id);
    return attachFile(this.storage, caller.companyId, file, queue.mediaPath, (key, checked) =>
      this.save(caller, async (tx) =>
        tx.getRepository(QueueEntity).save(Object.assign(queue, { mediaPath: key, mediaName: checked.fileName })),
      ),
    );
  }

  /** DELETE /queue/{id}/media-upload: the queue's file removed. */
  async detachMedia(caller: Caller, id: number): Promise<QueueDto> {
    const queue = await this.mustFind(caller, id);
    const previous = queue.mediaPath;
    const saved = await this.save(caller, async (tx) =>
      tx.getRepository(QueueEntity).save(Object.assign(queue, { mediaPath: null, mediaName: null })),
    );
    if (previous && isMediaKey(previous)) await dropFiles(this.storage, [previous]);
    return saved;
  }

  private async save(caller: Caller, write: (tx: import('typeorm').EntityManager) => Promise<QueueEntity>): Promise<QueueDto> {
    try {
      const { queue, ids } = await this.db.transaction(async (tx) => {
        const saved = await write(tx);
        const view = queueView(saved);
        const event: QueueChangedEvent = { companyId: caller.companyId, queue: view };
        const outboxIds = await this.outbox.add(tx, [
          {
            subject: TicketSubjects.queueUpdated(caller.companyId, saved.id),
            msgId: `queue-updated:${saved.id}:${view.updatedAt}`,
            payload: event,
          },
        ]);
        return { queue: view, ids: outboxIds };
      });
      await this.outbox.flush(ids);
      return queue;
    } catch (err) {
      if (isUniqueViolation(err)) {
        if (isUniqueViolation(err, 'color')) throw new DomainError('ERR_QUEUE_COLOR_ALREADY_EXISTS');
        throw new DomainError(
          'ERR_VALIDATION',
          { details: [{ field: 'name', messages: ['A queue with this name already exists'] }] },
          'A queue with this name already exists',
        );
      }
      throw err;
    }
  }

  private async mustFind(caller: Caller, id: number): Promise<QueueEntity> {
    const queue = Number.isSafeInteger(id) ? await this.db.getRepository(QueueEntity).findOneBy({ id, companyId: caller.companyId }) : null;
    if (!queue) throw new DomainError('ERR_NOT_FOUND', {}, 'Queue not found');
    return queue;
  }
}
