import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Injectable,
  Param,
  ParseIntPipe,
  Post,
  Put,
  Query,
  Res,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiProperty, ApiPropertyOptional, ApiResponse, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { CurrentUser, SuperOnly } from '@wa/auth';
import {
  Subjects,
  type AccessTokenClaims,
  type AnnouncementDto,
  type AnnouncementEvent,
  type AnnouncementsPage,
  type AnnouncementsQuery,
  type CreateAnnouncementRequest,
  type RequestDto,
  type UpdateAnnouncementRequest,
} from '@wa/contracts';
import {
  attachFile,
  DiscardUploadsInterceptor,
  DomainError,
  dropFiles,
  FlagField,
  isMediaKey,
  MediaStorage,
  mediaUploadOptions,
  Omittable,
  PageNumberField,
  sendStoredMedia,
  type StoredMedia,
  type UploadedDiskFile,
} from '@wa/server-kit';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import type { Response } from 'express';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { AnnouncementEntity } from '../database/entities/index.js';
import { Outbox } from '../outbox/outbox.service.js';
import { AnnouncementsRepository } from './announcements.repository.js';

export const ANNOUNCEMENTS_PAGE_SIZE = 20;
/** spec 02 §5: title and text are required, with this text. */
const REQUIRED = 'Obrigatório';
/** spec 02 §5: the attachment is an image, .png, .jpg or .jpeg. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg']);
const NOT_AN_IMAGE = 'Envie uma imagem .png, .jpg ou .jpeg';

export class CreateAnnouncementDto implements RequestDto<CreateAnnouncementDto, CreateAnnouncementRequest> {
  @ApiProperty({ maxLength: 200 })
  @IsString({ message: REQUIRED })
  @IsNotEmpty({ message: REQUIRED })
  @MaxLength(200, { message: 'Too Long!' })
  title: string;
  @ApiProperty({ maxLength: 10_000 })
  @IsString({ message: REQUIRED })
  @IsNotEmpty({ message: REQUIRED })
  @MaxLength(10_000, { message: 'Too Long!' })
  text: string;
  @ApiPropertyOptional({ enum: [1, 2, 3], default: 3 }) @IsOptional() @Type(() => Number) @IsInt() @IsIn([1, 2, 3]) priority?: 1 | 2 | 3;
  @ApiPropertyOptional({ default: true }) @FlagField() status?: boolean;
}

export class UpdateAnnouncementDto implements RequestDto<UpdateAnnouncementDto, UpdateAnnouncementRequest> {
  @ApiPropertyOptional()
  @Omittable()
  @IsString({ message: REQUIRED })
  @IsNotEmpty({ message: REQUIRED })
  @MaxLength(200, { message: 'Too Long!' })
  title?: string;
  @ApiPropertyOptional()
  @Omittable()
  @IsString({ message: REQUIRED })
  @IsNotEmpty({ message: REQUIRED })
  @MaxLength(10_000, { message: 'Too Long!' })
  text?: string;
  @ApiPropertyOptional({ enum: [1, 2, 3] }) @Omittable() @Type(() => Number) @IsInt() @IsIn([1, 2, 3]) priority?: 1 | 2 | 3;
  @ApiPropertyOptional() @FlagField() status?: boolean;
}

export class ListAnnouncementsQuery implements RequestDto<ListAnnouncementsQuery, AnnouncementsQuery> {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) searchParam?: string;
  @ApiPropertyOptional() @PageNumberField() pageNumber?: number;
}

export const announcementView = (a: AnnouncementEntity): AnnouncementDto => ({
  id: a.id,
  title: a.title,
  text: a.text,
  priority: (a.priority === 1 || a.priority === 2 ? a.priority : 3) as 1 | 2 | 3,
  status: a.status,
  mediaPath: a.mediaPath,
  mediaName: a.mediaName,
  mediaUrl: a.mediaPath ? `/announcements/${a.id}/media` : null,
  createdAt: a.createdAt.toISOString(),
  updatedAt: a.updatedAt.toISOString(),
});

const notFound = () => new DomainError('ERR_NOT_FOUND', {}, 'Announcement not found.');
const blank = (field: string) => new DomainError('ERR_VALIDATION', { details: [{ field, messages: [REQUIRED] }] }, `${field}: ${REQUIRED}`);

/**
 * The platform's announcements (spec 02): super users write them; every signed-in user of every company reads
 * the active ones (the top bar's popover), super users all of them (the /announcements page). Each change goes
 * out through the outbox (`company.announcement.*`) to every socket. The image is stored under the author's
 * company and served by `GET /announcements/{id}/media` to anyone who may read the announcement.
 */
@Injectable()
export class AnnouncementsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly announcements: AnnouncementsRepository,
    private readonly outbox: Outbox,
    private readonly storage: MediaStorage,
  ) {}

  async page(caller: AccessTokenClaims, q: ListAnnouncementsQuery): Promise<AnnouncementsPage> {
    const pageNumber = q.pageNumber ?? 1;
    const { rows, count } = await this.announcements.page(caller.super, q.searchParam?.trim(), pageNumber, ANNOUNCEMENTS_PAGE_SIZE);
    return { records: rows.map(announcementView), count, hasMore: pageNumber * ANNOUNCEMENTS_PAGE_SIZE < count };
  }

  async get(caller: AccessTokenClaims, id: number): Promise<AnnouncementDto> {
    return announcementView(await this.readable(caller, id));
  }

  async create(dto: CreateAnnouncementDto): Promise<AnnouncementDto> {
    const title = dto.title.trim();
    const text = dto.text.trim();
    if (!title) throw blank('title');
    if (!text) throw blank('text');
    return this.write(async (tx) =>
      this.announcements.create(tx, {
        title,
        text,
        priority: dto.priority ?? 3,
        status: dto.status ?? true,
        mediaPath: null,
        mediaName: null,
      }),
    );
  }

  async update(id: number, dto: UpdateAnnouncementDto): Promise<AnnouncementDto> {
    if (dto.title !== undefined && !dto.title.trim()) throw blank('title');
    if (dto.text !== undefined && !dto.text.trim()) throw blank('text');
    return this.write(async (tx) => {
      const a = await this.locked(tx, id);
      if (dto.title !== undefined) a.title = dto.title.trim();
      if (dto.text !== undefined) a.text = dto.text.trim();
      if (dto.priority !== undefined) a.priority = dto.priority;
      if (dto.status !== undefined) a.status = dto.status;
      return this.announcements.save(tx, a);
    });
  }

  async remove(id: number): Promise<void> {
    let mediaPath: string | null = null;
    const ids = await this.db.transaction(async (tx) => {
      const a = await this.locked(tx, id);
      mediaPath = a.mediaPath;
      await this.announcements.delete(tx, id);
      const event: AnnouncementEvent = { action: 'delete', announcementId: id };
      return this.outbox.add(tx, [{ subject: Subjects.announcementDeleted(id), msgId: `announcement-deleted:${id}`, payload: event }]);
    });
    await this.outbox.flush(ids);
    if (mediaPath) await dropFiles(this.storage, [mediaPath]);
  }

  /** POST /announcements/{id}/media-upload (multipart `file`): the image, a .png or .jpeg by its bytes. */
  async attachMedia(caller: AccessTokenClaims, id: number, file: UploadedDiskFile | undefined): Promise<AnnouncementDto> {
    const current = await this.announcements.find(id);
    if (!current) throw notFound();
    return attachFile(
      this.storage,
      caller.companyId,
      file,
      current.mediaPath,
      (key, checked) =>
        this.write(async (tx) => {
          const a = await this.locked(tx, id);
          return this.announcements.save(tx, Object.assign(a, { mediaPath: key, mediaName: checked.fileName }));
        }),
      (checked) => (IMAGE_TYPES.has(checked.mimetype) ? null : NOT_AN_IMAGE),
    );
  }

  /** DELETE /announcements/{id}/media-upload: the image removed. */
  async detachMedia(id: number): Promise<AnnouncementDto> {
    let previous: string | null = null;
    const view = await this.write(async (tx) => {
      const a = await this.locked(tx, id);
      previous = a.mediaPath;
      return this.announcements.save(tx, Object.assign(a, { mediaPath: null, mediaName: null }));
    });
    if (previous && isMediaKey(previous)) await dropFiles(this.storage, [previous]);
    return view;
  }

  /** The image of an announcement, for whoever may read the announcement (else 404). */
  async media(caller: AccessTokenClaims, id: number): Promise<StoredMedia> {
    const a = await this.readable(caller, id);
    const found = a.mediaPath && isMediaKey(a.mediaPath) ? await this.storage.get(a.mediaPath) : null;
    if (!found) throw new DomainError('ERR_NOT_FOUND');
    return found;
  }

  /** An announcement the caller may read: super users any, others the active ones (else 404, as a missing one). */
  private async readable(caller: AccessTokenClaims, id: number): Promise<AnnouncementEntity> {
    const a = await this.announcements.find(id);
    if (!a || (!a.status && !caller.super)) throw notFound();
    return a;
  }

  private async locked(tx: EntityManager, id: number): Promise<AnnouncementEntity> {
    const a = await this.announcements.lock(tx, id);
    if (!a) throw notFound();
    return a;
  }

  private async write(save: (tx: EntityManager) => Promise<AnnouncementEntity>): Promise<AnnouncementDto> {
    const { view, ids } = await this.db.transaction(async (tx) => {
      const view = announcementView(await save(tx));
      const event: AnnouncementEvent = { action: 'update', announcement: view };
      return {
        view,
        ids: await this.outbox.add(tx, [
          { subject: Subjects.announcementUpdated(view.id), msgId: `announcement-updated:${view.id}:${randomUUID()}`, payload: event },
        ]),
      };
    });
    await this.outbox.flush(ids);
    return view;
  }
}

/** spec 02 "Announcements": the list and the popover for everyone signed in; writes for super users only. */
@ApiTags('announcements')
@Controller('announcements')
export class AnnouncementsController {
  constructor(private readonly announcements: AnnouncementsService) {}

  @Get()
  @ApiResponse({
    status: 200,
    description:
      'a page of announcements (active ones, for a non-super user): { records: [{ id, title, text, priority, status, mediaPath, mediaName, mediaUrl, createdAt, updatedAt }], count, hasMore }',
  })
  page(@CurrentUser() caller: AccessTokenClaims, @Query() q: ListAnnouncementsQuery): Promise<AnnouncementsPage> {
    return this.announcements.page(caller, q);
  }

  @Get(':id')
  @ApiResponse({
    status: 200,
    description: 'the announcement: { id, title, text, priority, status, mediaPath, mediaName, mediaUrl, createdAt, updatedAt }',
  })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such announcement (or not active, for a non-super user)' })
  get(@CurrentUser() caller: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<AnnouncementDto> {
    return this.announcements.get(caller, id);
  }

  @Get(':id/media')
  @ApiResponse({ status: 200, description: "the announcement's attachment, its bytes with its content type" })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such announcement (or not active, for a non-super user)' })
  async media(@CurrentUser() caller: AccessTokenClaims, @Param('id', ParseIntPipe) id: number, @Res() res: Response): Promise<void> {
    // the image can be replaced under the same address: the browser asks again each time
    await sendStoredMedia(res, await this.announcements.media(caller, id), { disposition: 'inline', cacheControl: 'private, no-cache' });
  }

  @SuperOnly()
  @Post()
  @ApiResponse({
    status: 201,
    description: 'the announcement created: { id, title, text, priority, status, mediaPath, mediaName, mediaUrl, createdAt, updatedAt }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: super users only' })
  create(@Body() body: CreateAnnouncementDto): Promise<AnnouncementDto> {
    return this.announcements.create(body);
  }

  @SuperOnly()
  @Put(':id')
  @ApiResponse({
    status: 200,
    description:
      'the announcement as it is now: { id, title, text, priority, status, mediaPath, mediaName, mediaUrl, createdAt, updatedAt }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: super users only' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such announcement (or not active, for a non-super user)' })
  update(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateAnnouncementDto): Promise<AnnouncementDto> {
    return this.announcements.update(id, body);
  }

  @SuperOnly()
  @Delete(':id')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "{ message: 'Announcement deleted' }" })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: super users only' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such announcement (or not active, for a non-super user)' })
  async remove(@Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.announcements.remove(id);
    return { message: 'Announcement deleted' };
  }

  @SuperOnly()
  @Post(':id/media-upload')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description:
      'the announcement with its attachment: { id, title, text, priority, status, mediaPath, mediaName, mediaUrl, createdAt, updatedAt }',
  })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION: no file, or a file refused' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: super users only' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such announcement (or not active, for a non-super user)' })
  @ApiResponse({ status: 413, description: 'ERR_PAYLOAD_TOO_LARGE' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } })
  @UseInterceptors(FileInterceptor('file', mediaUploadOptions(1)), DiscardUploadsInterceptor)
  upload(
    @CurrentUser() caller: AccessTokenClaims,
    @Param('id', ParseIntPipe) id: number,
    @UploadedFile() file: UploadedDiskFile | undefined,
  ): Promise<AnnouncementDto> {
    return this.announcements.attachMedia(caller, id, file);
  }

  @SuperOnly()
  @Delete(':id/media-upload')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description:
      'the announcement without its attachment: { id, title, text, priority, status, mediaPath, mediaName, mediaUrl, createdAt, updatedAt }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: super users only' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such announcement (or not active, for a non-super user)' })
  removeMedia(@Param('id', ParseIntPipe) id: number): Promise<AnnouncementDto> {
    return this.announcements.detachMedia(id);
  }
}
