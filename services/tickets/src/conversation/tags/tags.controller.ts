import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, Query } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import type { TagDto, TagsPage, TicketDto } from '@wa/contracts';
import type { Caller } from '../../identity/caller.service.js';
import { CurrentCaller } from '../../identity/current-caller.js';
import { CreateTagDto, ListTagsQueryDto, SyncTagsDto, UpdateTagDto } from './tags.dto.js';
import { TagsService } from './tags.service.js';

@ApiTags('tags')
@Controller('tags')
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @Get()
  @ApiResponse({ status: 200, description: 'a page of tags: { tags: [{ id, name, color, kanban, ticketsCount, … }], hasMore }' })
  async page(@CurrentCaller() caller: Caller, @Query() query: ListTagsQueryDto): Promise<TagsPage> {
    return this.tags.page(caller, query);
  }

  @Get('list')
  @ApiResponse({ status: 200, description: 'every tag of the company: [{ id, name, color, kanban, … }]' })
  async list(@CurrentCaller() caller: Caller): Promise<TagDto[]> {
    return this.tags.list(caller);
  }

  /** spec 02 "Tags and kanban": the kanban's lanes, the tags marked for it (plan flag useKanban, at the gateway). */
  @Get('kanban')
  @ApiResponse({ status: 200, description: "the kanban's lanes: { lista: [tag…] }" })
  async kanban(@CurrentCaller() caller: Caller): Promise<{ lista: TagDto[] }> {
    return this.tags.kanban(caller);
  }

  /** The ticket's tags become exactly these (spec 01 §7). */
  @Post('sync')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: 'the ticket with exactly these tags: { id, uuid, status, tags, … }' })
  @ApiResponse({ status: 404, description: 'ERR_NO_TICKET_FOUND' })
  async sync(@CurrentCaller() caller: Caller, @Body() body: SyncTagsDto): Promise<TicketDto> {
    return this.tags.sync(
      caller,
      body.ticketId,
      body.tags.map((t) => t.id),
    );
  }

  @Get(':id')
  @ApiResponse({ status: 200, description: 'the tag: { id, name, color, kanban, … }' })
  @ApiResponse({ status: 404, description: 'ERR_NO_TAG_FOUND' })
  async get(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<TagDto> {
    return this.tags.get(caller, id);
  }

  @Post()
  @ApiResponse({ status: 201, description: 'the tag created: { id, name, color, kanban, … }' })
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateTagDto): Promise<TagDto> {
    return this.tags.create(caller, body);
  }

  @Put(':id')
  @ApiResponse({ status: 200, description: 'the tag as it is now: { id, name, color, kanban, … }' })
  @ApiResponse({ status: 404, description: 'ERR_NO_TAG_FOUND' })
  async update(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number, @Body() body: UpdateTagDto): Promise<TagDto> {
    return this.tags.update(caller, id, body);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "{ message: 'Tag deleted' }" })
  @ApiResponse({ status: 404, description: 'ERR_NO_TAG_FOUND' })
  async remove(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.tags.remove(caller, id);
    return { message: 'Tag deleted' };
  }
}

/** spec 02 §7: one tag put on a ticket; all of a ticket's tags taken off. */
@ApiTags('tags')
@Controller('ticket-tags')
export class TicketTagsController {
  constructor(private readonly tags: TagsService) {}

  @Put(':ticketId/:tagId')
  @ApiResponse({ status: 200, description: "{ message: 'Ticket Tag Adicionado com Sucesso!', ticket: { id, uuid, status, tags, … } }" })
  @ApiResponse({ status: 404, description: 'ERR_NO_TICKET_FOUND, ERR_NO_TAG_FOUND' })
  async add(
    @CurrentCaller() caller: Caller,
    @Param('ticketId', ParseIntPipe) ticketId: number,
    @Param('tagId', ParseIntPipe) tagId: number,
  ): Promise<{ message: string; ticket: TicketDto }> {
    return { message: 'Ticket Tag Adicionado com Sucesso!', ticket: await this.tags.add(caller, ticketId, tagId) };
  }

  @Delete(':ticketId')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "{ message: 'Ticket Tag Removido!', ticket: { id, uuid, status, tags: [], … } }" })
  @ApiResponse({ status: 404, description: 'ERR_NO_TICKET_FOUND' })
  async clear(
    @CurrentCaller() caller: Caller,
    @Param('ticketId', ParseIntPipe) ticketId: number,
  ): Promise<{ message: string; ticket: TicketDto }> {
    return { message: 'Ticket Tag Removido!', ticket: await this.tags.clear(caller, ticketId) };
  }
}
