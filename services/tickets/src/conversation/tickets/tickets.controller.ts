import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, Query } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '@wa/auth';
import type { TicketDto, TicketsPage } from '@wa/contracts';
import type { Caller } from '../../identity/caller.service.js';
import { CurrentCaller } from '../../identity/current-caller.js';
import { CreateTicketDto, KanbanTicketsQueryDto, ListTicketsQueryDto, UpdateTicketDto } from './tickets.dto.js';
import { TicketsService } from './tickets.service.js';

@ApiTags('tickets')
@Controller('tickets')
export class TicketsController {
  constructor(private readonly tickets: TicketsService) {}

  @Get()
  @ApiResponse({ status: 200, description: 'a page of the tickets the caller may see: { tickets: [ticket…], hasMore, nextCursor }' })
  async list(@CurrentCaller() caller: Caller, @Query() query: ListTicketsQueryDto): Promise<TicketsPage> {
    return this.tickets.list(caller, query);
  }

  @Get('u/:uuid')
  @ApiResponse({
    status: 200,
    description:
      'the ticket: { id, uuid, status, userId, user, queueId, queue, whatsappId, whatsapp, contactId, contact, tags, lastMessage, unreadMessages, … }',
  })
  @ApiResponse({ status: 404, description: 'ERR_NO_TICKET_FOUND' })
  async byUuid(@CurrentCaller() caller: Caller, @Param('uuid') uuid: string): Promise<TicketDto> {
    return this.tickets.getByUuid(caller, uuid);
  }

  @Get(':id')
  @ApiResponse({
    status: 200,
    description:
      'the ticket: { id, uuid, status, userId, user, queueId, queue, whatsappId, whatsapp, contactId, contact, tags, lastMessage, unreadMessages, … }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: a ticket of a queue the user is not in' })
  @ApiResponse({ status: 404, description: 'ERR_NO_TICKET_FOUND' })
  async get(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<TicketDto> {
    return this.tickets.get(caller, id);
  }

  @Post()
  @ApiResponse({
    status: 201,
    description:
      'the ticket opened: { id, uuid, status, userId, user, queueId, queue, whatsappId, whatsapp, contactId, contact, tags, lastMessage, unreadMessages, … }',
  })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION, ERR_CREATING_TICKET, ERR_WAPP_CHECK_CONTACT, ERR_WAPP_INVALID_CONTACT' })
  @ApiResponse({ status: 404, description: 'ERR_NO_CONTACT_FOUND, ERR_NO_WAPP_FOUND, ERR_NO_DEF_WAPP_FOUND' })
  @ApiResponse({ status: 409, description: 'ERR_OTHER_OPEN_TICKET: the contact has an open ticket (the body names its user and queue)' })
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateTicketDto): Promise<TicketDto> {
    return this.tickets.create(caller, body);
  }

  @Put(':id')
  @ApiResponse({
    status: 200,
    description:
      'the ticket as it is now: { id, uuid, status, userId, user, queueId, queue, whatsappId, whatsapp, contactId, contact, tags, lastMessage, unreadMessages, … }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION' })
  @ApiResponse({ status: 404, description: 'ERR_NO_TICKET_FOUND, ERR_NO_WAPP_FOUND' })
  @ApiResponse({ status: 409, description: 'ERR_OTHER_OPEN_TICKET: reopening while the contact has another open ticket' })
  async update(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number, @Body() body: UpdateTicketDto): Promise<TicketDto> {
    return this.tickets.update(caller, id, body);
  }

  @AdminOnly()
  @Delete(':id')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "{ message: 'ticket deleted' }" })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_TICKET_FOUND' })
  async remove(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.tickets.remove(caller, id);
    return { message: 'ticket deleted' };
  }
}

/** spec 02 "Tags and kanban": the board's tickets (plan flag useKanban, at the gateway). */
@ApiTags('tickets')
@Controller('ticket')
export class KanbanController {
  constructor(private readonly tickets: TicketsService) {}

  @Get('kanban')
  @ApiResponse({ status: 200, description: "a page of the board's tickets: { tickets: [ticket…], hasMore, nextCursor }" })
  async kanban(@CurrentCaller() caller: Caller, @Query() query: KanbanTicketsQueryDto): Promise<TicketsPage> {
    return this.tickets.kanban(caller, query);
  }
}
