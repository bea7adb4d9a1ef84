import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
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
  async list(@CurrentCaller() caller: Caller, @Query() query: ListTicketsQueryDto): Promise<TicketsPage> {
    return this.tickets.list(caller, query);
  }

  @Get('u/:uuid')
  async byUuid(@CurrentCaller() caller: Caller, @Param('uuid') uuid: string): Promise<TicketDto> {
    return this.tickets.getByUuid(caller, uuid);
  }

  @Get(':id')
  async get(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<TicketDto> {
    return this.tickets.get(caller, id);
  }

  @Post()
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateTicketDto): Promise<TicketDto> {
    return this.tickets.create(caller, body);
  }

  @Put(':id')
  async update(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number, @Body() body: UpdateTicketDto): Promise<TicketDto> {
    return this.tickets.update(caller, id, body);
  }

  @AdminOnly()
  @Delete(':id')
  @HttpCode(200)
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
  async kanban(@CurrentCaller() caller: Caller, @Query() query: KanbanTicketsQueryDto): Promise<TicketsPage> {
    return this.tickets.kanban(caller, query);
  }
}
