import { Body, Controller, Delete, Get, HttpCode, Injectable, Param, ParseIntPipe, Post, Put, Query } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse, ApiTags } from '@nestjs/swagger';
import { SuperOnly } from '@wa/auth';
import {
  Subjects,
  type CreateHelpRequest,
  type HelpChangedEvent,
  type HelpDto,
  type HelpsPage,
  type HelpsQuery,
  type RequestDto,
  type UpdateHelpRequest,
} from '@wa/contracts';
import { DomainError, Omittable, PageNumberField, TextField } from '@wa/server-kit';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import type { HelpEntity } from '../database/entities/index.js';
import { Outbox } from '../outbox/outbox.service.js';
import { HelpsRepository } from './helps.repository.js';

export const HELPS_PAGE_SIZE = 40;
/** `/helps/list` answers at most this many (the Ajuda tab). */
const HELPS_LISTED = 500;
/** A video's code as YouTube gives it (letters, digits, `-`, `_`). */
const VIDEO_CODE = /^[A-Za-z0-9_-]{1,100}$/;

export class CreateHelpDto implements RequestDto<CreateHelpDto, CreateHelpRequest> {
  @ApiProperty({ minLength: 2, maxLength: 100 }) @TextField(2, 100) title: string;
  @ApiPropertyOptional({ maxLength: 2000 }) @IsOptional() @IsString() @MaxLength(2000, { message: 'Too Long!' }) description?: string;
  @ApiProperty({ description: 'the video’s code (a YouTube id, e.g. dQw4w9WgXcQ)' })
  @IsString({ message: 'Required' })
  @Matches(VIDEO_CODE, { message: 'Código de vídeo inválido' })
  video: string;
}

export class UpdateHelpDto implements RequestDto<UpdateHelpDto, UpdateHelpRequest> {
  @ApiPropertyOptional() @TextField(2, 100, { optional: true }) title?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(2000, { message: 'Too Long!' }) description?: string;
  @ApiPropertyOptional()
  @Omittable()
  @IsString({ message: 'Required' })
  @Matches(VIDEO_CODE, { message: 'Código de vídeo inválido' })
  video?: string;
}

export class ListHelpsQuery implements RequestDto<ListHelpsQuery, HelpsQuery> {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) searchParam?: string;
  @ApiPropertyOptional() @PageNumberField() pageNumber?: number;
}

const helpView = (h: HelpEntity): HelpDto => ({
  id: h.id,
  title: h.title,
  description: h.description,
  video: h.video,
  createdAt: h.createdAt.toISOString(),
  updatedAt: h.updatedAt.toISOString(),
});
const nameTaken = () =>
  new DomainError(
    'ERR_VALIDATION',
    { details: [{ field: 'title', messages: ['A help with this title already exists'] }] },
    'A help with this title already exists',
  );

/**
 * The platform's help videos: everyone reads them (the /helps page); super users manage them (settings tab Ajuda).
 * Each change goes out through the outbox (`company.help.updated|deleted.<id>`): the lists reload live.
 */
@Injectable()
export class HelpsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly helps: HelpsRepository,
    private readonly outbox: Outbox,
  ) {}

  async page(query: ListHelpsQuery): Promise<HelpsPage> {
    const pageNumber = query.pageNumber ?? 1;
    const { rows, count } = await this.helps.page(query.searchParam?.trim(), pageNumber, HELPS_PAGE_SIZE);
    return { helps: rows.map(helpView), count, hasMore: pageNumber * HELPS_PAGE_SIZE < count };
  }

  async list(): Promise<HelpDto[]> {
    return (await this.helps.list(HELPS_LISTED)).map(helpView);
  }

  async create(dto: CreateHelpDto): Promise<HelpDto> {
    return this.unique(() =>
      this.write((tx) => this.helps.create(tx, { title: dto.title.trim(), description: dto.description?.trim() ?? '', video: dto.video })),
    );
  }

  async update(id: number, dto: UpdateHelpDto): Promise<HelpDto> {
    const help = await this.helps.find(id);
    if (!help) throw new DomainError('ERR_NOT_FOUND');
    if (dto.title !== undefined) help.title = dto.title.trim();
    if (dto.description !== undefined) help.description = dto.description.trim();
    if (dto.video !== undefined) help.video = dto.video;
    return this.unique(() => this.write((tx) => this.helps.save(tx, help)));
  }

  async remove(id: number): Promise<void> {
    const ids = await this.db.transaction(async (tx) => {
      if (!(await this.helps.delete(tx, id))) throw new DomainError('ERR_NOT_FOUND');
      const event: HelpChangedEvent = { helpId: id, at: new Date().toISOString() };
      return this.outbox.add(tx, [{ subject: Subjects.helpDeleted(id), msgId: `help-deleted:${id}`, payload: event }]);
    });
    await this.outbox.flush(ids);
  }

  /** Saves and announces the change in one transaction. */
  private async write(save: (tx: EntityManager) => Promise<HelpEntity>): Promise<HelpDto> {
    const { view, ids } = await this.db.transaction(async (tx) => {
      const view = helpView(await save(tx));
      const event: HelpChangedEvent = { helpId: view.id, at: new Date().toISOString() };
      return {
        view,
        ids: await this.outbox.add(tx, [
          { subject: Subjects.helpUpdated(view.id), msgId: `help-updated:${view.id}:${randomUUID()}`, payload: event },
        ]),
      };
    });
    await this.outbox.flush(ids);
    return view;
  }

  private async unique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw nameTaken();
      throw err;
    }
  }
}

/** spec 02 Helps: `GET /helps` (everyone signed in), `GET /helps/list`, and their management by super users. */
@ApiTags('helps')
@Controller('helps')
export class HelpsController {
  constructor(private readonly helps: HelpsService) {}

  @Get()
  @ApiResponse({
    status: 200,
    description: 'a page of help videos: { helps: [{ id, title, description, video, createdAt, updatedAt }], count, hasMore }',
  })
  page(@Query() query: ListHelpsQuery): Promise<HelpsPage> {
    return this.helps.page(query);
  }

  @Get('list')
  @ApiResponse({ status: 200, description: 'every help video: [{ id, title, description, video, createdAt, updatedAt }]' })
  list(): Promise<HelpDto[]> {
    return this.helps.list();
  }

  @SuperOnly()
  @Post()
  @ApiResponse({ status: 201, description: 'the help created: { id, title, description, video, createdAt, updatedAt }' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: super users only' })
  create(@Body() body: CreateHelpDto): Promise<HelpDto> {
    return this.helps.create(body);
  }

  @SuperOnly()
  @Put(':id')
  @ApiResponse({ status: 200, description: 'the help as it is now: { id, title, description, video, createdAt, updatedAt }' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: super users only' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such help' })
  update(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateHelpDto): Promise<HelpDto> {
    return this.helps.update(id, body);
  }

  @SuperOnly()
  @Delete(':id')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "{ message: 'Help deleted' }" })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: super users only' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such help' })
  async remove(@Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.helps.remove(id);
    return { message: 'Help deleted' };
  }
}
