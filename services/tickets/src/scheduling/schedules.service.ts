import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ScheduleDto, SchedulesPage } from '@wa/contracts';
import { DomainError, isMediaKey, MediaStorage, type UploadedDiskFile, attachFile, invalidField } from '@wa/server-kit';
import { companyTimeZone, instantIn, TIME_ZONE_SETTING } from '@wa/domain';
import { Brackets, DataSource, IsNull, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { ContactEntity, ScheduleEntity } from '../database/entities/index.js';
import { likeEscaped } from '@wa/database';
import type { Caller } from '../identity/caller.service.js';
import { Outbox, type OutgoingEvent } from '../outbox/outbox.service.js';
import { ReadModels } from '../read-models/read-models.repository.js';
import { ScheduleJobs } from './jobs/schedule-jobs.js';
import { scheduleDeletedEvent, scheduleUpdatedEvent, scheduleView, type ScheduleRow } from './schedule-view.js';
import type { CreateScheduleDto, ListSchedulesQueryDto, UpdateScheduleDto } from './schedules.dto.js';
import { visibleSchedules } from './schedules.queries.js';

export const SCHEDULES_PAGE_SIZE = 40;
/** A schedule is at most this far ahead. */
const MAX_AHEAD_MS = 5 * 366 * 24 * 3600 * 1000;

/**
 * Scheduled messages (spec 01 §3, §5; spec 02 "Schedules"). A caller sees and changes their own; admins
 * the company's all. Each change is announced on the company's `-schedule` channel; the send itself is a
 * delayed job (ScheduleJobs) run by ScheduleSender. Once sent, a schedule is kept as a record: it can be
 * deleted but no longer changed.
 */
@Injectable()
export class SchedulesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly storage: MediaStorage,
    private readonly outbox: Outbox,
    private readonly jobs: ScheduleJobs,
    private readonly readModels: ReadModels,
  ) {}

  private visible(caller: Caller): SelectQueryBuilder<ScheduleEntity> {
    return visibleSchedules(this.db, caller.companyId, caller.isAdmin ? null : caller.id);
  }

  private async rows(qb: SelectQueryBuilder<ScheduleEntity>): Promise<ScheduleRow[]> {
    const { entities, raw } = await qb.getRawAndEntities();
    return entities.map((e) => {
      const r = raw.find((x: { s_id: number }) => x.s_id === e.id) as { contactName: string | null; contactNumber: string | null };
      return { ...e, contactName: r?.contactName ?? null, contactNumber: r?.contactNumber ?? null };
    });
  }

  async page(caller: Caller, q: ListSchedulesQueryDto): Promise<SchedulesPage> {
    const qb = this.visible(caller);
    const term = q.searchParam?.trim().toLowerCase();
    if (term) {
      qb.andWhere(
        new Brackets((w) =>
          w
            .where(`lower(c.name) LIKE :term ESCAPE '\\'`, { term: `%${likeEscaped(term)}%` })
            .orWhere(`c.number LIKE :term ESCAPE '\\'`)
            .orWhere(`lower(s.body) LIKE :term ESCAPE '\\'`),
        ),
      );
    }
    if (q.contactId) qb.andWhere('s."contactId" = :contactId', { contactId: q.contactId });
    const tz = await this.timeZone(caller.companyId);
    for (const [field, op] of [
      ['from', '>='],
      ['to', '<'],
    ] as const) {
      const value = q[field];
      if (value === undefined || value === '') continue;
      const at = instantIn(value, tz);
      if (!at) throw invalidField(field, 'Data inválida');
      qb.andWhere(`s."sendAt" ${op} :${field}`, { [field]: at });
    }
    const count = await qb.clone().getCount();
    const rows = await this.rows(
      qb
        .orderBy('s."sendAt"', 'ASC')
        .addOrderBy('s.id', 'ASC')
        .offset(((q.pageNumber ?? 1) - 1) * SCHEDULES_PAGE_SIZE)
        .limit(SCHEDULES_PAGE_SIZE + 1),
    );
    return { schedules: rows.slice(0, SCHEDULES_PAGE_SIZE).map(scheduleView), hasMore: rows.length > SCHEDULES_PAGE_SIZE, count };
  }

  async get(caller: Caller, id: number): Promise<ScheduleDto> {
    return scheduleView(await this.find(caller, id));
  }

  async create(caller: Caller, dto: CreateScheduleDto): Promise<ScheduleDto> {
    await this.contactOf(caller, dto.contactId);
    const sendAt = await this.sendTime(caller, dto.sendAt);
    const saved = await this.write(async (tx) => {
      const repo = tx.getRepository(ScheduleEntity);
      return repo.save(
        repo.create({
          companyId: caller.companyId,
          userId: caller.id,
          contactId: dto.contactId,
          body: dto.body.trim(),
          sendAt,
          status: 'PENDENTE',
        }),
      );
    });
    await this.jobs.schedule(saved);
    return this.get(caller, saved.id);
  }

  /** Changes one not sent yet; a new time (or a new try after ERRO) moves its job. */
  async update(caller: Caller, id: number, dto: UpdateScheduleDto): Promise<ScheduleDto> {
    const current = await this.unsent(caller, id);
    if (dto.contactId !== undefined) await this.contactOf(caller, dto.contactId);
    const sendAt = dto.sendAt !== undefined ? await this.sendTime(caller, dto.sendAt) : current.sendAt;
    await this.write(async (tx) => {
      const locked = await tx
        .getRepository(ScheduleEntity)
        .findOne({ where: { id, companyId: caller.companyId }, lock: { mode: 'pessimistic_write' } });
      // sent while the caller was editing: the record stays as it went
      if (!locked || locked.sentAt) throw new DomainError('ERR_SCHEDULE_ALREADY_SENT');
      await tx.getRepository(ScheduleEntity).update(
        { id, companyId: caller.companyId },
        {
          ...(dto.body !== undefined ? { body: dto.body.trim() } : {}),
          ...(dto.contactId !== undefined ? { contactId: dto.contactId } : {}),
          sendAt,
          // saving again is how a failed one is tried again
          status: 'PENDENTE',
          reason: null,
          updatedAt: new Date(),
        },
      );
      return (await tx.getRepository(ScheduleEntity).findOneBy({ id })) as ScheduleEntity;
    });
    if (current.sendAt.getTime() !== sendAt.getTime()) await this.jobs.cancel(current);
    await this.jobs.schedule({ id, companyId: caller.companyId, sendAt });
    return this.get(caller, id);
  }

  async remove(caller: Caller, id: number): Promise<void> {
    await this.find(caller, id);
    // decided on the locked row: a send running now finishes first, and its file is then its message's
    const { row, outboxIds } = await this.db.transaction(async (tx) => {
      const locked = await tx
        .getRepository(ScheduleEntity)
        .findOne({ where: { id, companyId: caller.companyId }, lock: { mode: 'pessimistic_write' } });
      if (!locked) throw new DomainError('ERR_NO_SCHEDULE_FOUND');
      await tx.getRepository(ScheduleEntity).delete({ id, companyId: caller.companyId });
      return { row: locked, outboxIds: await this.outbox.add(tx, [scheduleDeletedEvent(locked)]) };
    });
    await this.outbox.flush(outboxIds);
    await this.jobs.cancel(row);
    if (!row.sentAt) await this.dropFile(row.mediaPath);
  }

  /** The picture sent with the message (POST /schedules/{id}/media-upload, multipart `file`): png, jpg or jpeg. */
  async attachMedia(caller: Caller, id: number, file: UploadedDiskFile | undefined): Promise<ScheduleDto> {
    const row = await this.unsent(caller, id);
    await attachFile(
      this.storage,
      caller.companyId,
      file,
      row.mediaPath,
      (key, checked) =>
        this.write(async (tx) => {
          const r = await tx.getRepository(ScheduleEntity).update(
            { id, companyId: caller.companyId, sentAt: IsNull() },
            {
              mediaPath: key,
              mediaName: checked.fileName,
              mediaType: checked.mediaType,
              mediaMimetype: checked.mimetype,
              mediaSize: checked.size,
              updatedAt: new Date(),
            },
          );
          if (!r.affected) throw new DomainError('ERR_NO_SCHEDULE_FOUND');
          return (await tx.getRepository(ScheduleEntity).findOneBy({ id })) as ScheduleEntity;
        }),
      (checked) => (checked.mimetype === 'image/png' || checked.mimetype === 'image/jpeg' ? null : 'Apenas arquivos png, jpg e jpeg'),
    );
    return this.get(caller, id);
  }

  async detachMedia(caller: Caller, id: number): Promise<ScheduleDto> {
    await this.unsent(caller, id);
    let dropped: string | null = null;
    await this.write(async (tx) => {
      const locked = await tx
        .getRepository(ScheduleEntity)
        .findOne({ where: { id, companyId: caller.companyId }, lock: { mode: 'pessimistic_write' } });
      if (!locked) throw new DomainError('ERR_NO_SCHEDULE_FOUND');
      // sent meanwhile: the picture went with the message and stays
      if (locked.sentAt) throw new DomainError('ERR_SCHEDULE_ALREADY_SENT');
      dropped = locked.mediaPath;
      await tx
        .getRepository(ScheduleEntity)
        .update(
          { id, companyId: caller.companyId },
          { mediaPath: null, mediaName: null, mediaType: null, mediaMimetype: null, mediaSize: null, updatedAt: new Date() },
        );
      return (await tx.getRepository(ScheduleEntity).findOneBy({ id })) as ScheduleEntity;
    });
    await this.dropFile(dropped);
    return this.get(caller, id);
  }

  /** A change in one transaction with its announcement. */
  private async write(change: (tx: EntityManager) => Promise<ScheduleEntity>): Promise<ScheduleEntity> {
    const { saved, outboxIds } = await this.db.transaction(async (tx) => {
      const s = await change(tx);
      const contact = await tx.getRepository(ContactEntity).findOneBy({ id: s.contactId, companyId: s.companyId });
      const events: OutgoingEvent[] = [
        scheduleUpdatedEvent({ ...s, contactName: contact?.name ?? null, contactNumber: contact?.number ?? null }),
      ];
      return { saved: s, outboxIds: await this.outbox.add(tx, events) };
    });
    await this.outbox.flush(outboxIds);
    return saved;
  }

  private async sendTime(caller: Caller, value: string): Promise<Date> {
    const at = instantIn(value.trim(), await this.timeZone(caller.companyId));
    if (!at) throw invalidField('sendAt', 'Data inválida');
    if (at.getTime() - Date.now() > MAX_AHEAD_MS) throw invalidField('sendAt', 'Data inválida');
    return at;
  }

  private async timeZone(companyId: number): Promise<string> {
    return companyTimeZone(await this.readModels.setting(companyId, TIME_ZONE_SETTING));
  }

  private async contactOf(caller: Caller, contactId: number): Promise<ContactEntity> {
    const contact = await this.db.getRepository(ContactEntity).findOneBy({ id: contactId, companyId: caller.companyId });
    if (!contact) throw new DomainError('ERR_NO_CONTACT_FOUND');
    return contact;
  }

  private async find(caller: Caller, id: number): Promise<ScheduleRow> {
    const row = Number.isSafeInteger(id) ? (await this.rows(this.visible(caller).andWhere('s.id = :id', { id })))[0] : undefined;
    if (!row) throw new DomainError('ERR_NO_SCHEDULE_FOUND');
    return row;
  }

  private async unsent(caller: Caller, id: number): Promise<ScheduleRow> {
    const row = await this.find(caller, id);
    if (row.sentAt) throw new DomainError('ERR_SCHEDULE_ALREADY_SENT');
    return row;
  }

  private async dropFile(mediaPath: string | null): Promise<void> {
    if (mediaPath && isMediaKey(mediaPath)) await this.storage.delete(mediaPath).catch(() => undefined);
  }
}
