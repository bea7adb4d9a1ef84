import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '@wa/auth';
import type { AccessTokenClaims, TagDto, TagsPage, TicketDto } from '@wa/contracts';
import { CallerService } from '../../identity/caller.service.js';
import { CreateTagDto, ListTagsQueryDto, SyncTagsDto, UpdateTagDto } from './tags.dto.js';
import { TagsService } from './tags.service.js';

@ApiTags('tags')
@Controller('tags')
export class TagsController {
  constructor(
    private readonly tags: TagsService,
    private readonly callers: CallerService,
  ) {}

  @Get()
  async page(@CurrentUser() claims: AccessTokenClaims, @Query() query: ListTagsQueryDto): Promise<TagsPage> {
    return this.tags.page(await this.callers.of(claims), query);
  }

  @Get('list')
  async list(@CurrentUser() claims: AccessTokenClaims): Promise<TagDto[]> {
    return this.tags.list(await this.callers.of(claims));
  }

  /** spec 02 "Tags and kanban": the kanban's lanes, the tags marked for it (plan flag useKanban, at the gateway). */
  @Get('kanban')
  async kanban(@CurrentUser() claims: AccessTokenClaims): Promise<{ lista: TagDto[] }> {
    return this.tags.kanban(await this.callers.of(claims));
  }

  /** The ticket's tags become exactly these (spec 01 §7). */
  @Post('sync')
  @HttpCode(200)
  async sync(@CurrentUser() claims: AccessTokenClaims, @Body() body: SyncTagsDto): Promise<TicketDto> {
    return this.tags.sync(await this.callers.of(claims), body.ticketId, body.tags.map((t) => t.id));
  }

  @Get(':id')
  async get(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<TagDto> {
    return this.tags.get(await this.callers.of(claims), id);
  }

  @Post()
  async create(@CurrentUser() claims: AccessTokenClaims, @Body() body: CreateTagDto): Promise<TagDto> {
    return this.tags.create(await this.callers.of(claims), body);
  }

  @Put(':id')
  async update(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number, @Body() body: UpdateTagDto): Promise<TagDto> {
    return this.tags.update(await this.callers.of(claims), id, body);
  }

  @Delete(':id')
  @HttpCode(200)
  async remove(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.tags.remove(await this.callers.of(claims), id);
    return { message: 'Tag deleted' };
  }
}

/** spec 02 §7: one tag put on a ticket; all of a ticket's tags taken off. */
@ApiTags('tags')
@Controller('ticket-tags')
export class TicketTagsController {
  constructor(
    private readonly tags: TagsService,
    private readonly callers: CallerService,
  ) {}

  @Put(':ticketId/:tagId')
  async add(@CurrentUser() claims: AccessTokenClaims, @Param('ticketId', ParseIntPipe) ticketId: number, @Param('tagId', ParseIntPipe) tagId: number): Promise<{ message: string; ticket: TicketDto }> {
    return { message: 'Ticket Tag Adicionado com Sucesso!', ticket: await this.tags.add(await this.callers.of(claims), ticketId, tagId) };
  }

  @Delete(':ticketId')
  @HttpCode(200)
  async clear(@CurrentUser() claims: AccessTokenClaims, @Param('ticketId', ParseIntPipe) ticketId: number): Promise<{ message: string; ticket: TicketDto }> {
    return { message: 'Ticket Tag Removido!', ticket: await this.tags.clear(await this.callers.of(claims), ticketId) };
  }
}
