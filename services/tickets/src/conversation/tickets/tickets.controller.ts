import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminOnly, CurrentUser } from '@wa/auth';
import type { AccessTokenClaims, TicketDto, TicketsPage } from '@wa/contracts';
import { CallerService } from '../../identity/caller.service.js';
import { CreateTicketDto, KanbanTicketsQueryDto, ListTicketsQueryDto, UpdateTicketDto } from './tickets.dto.js';
import { TicketsService } from './tickets.service.js';

@ApiTags('tickets')
@Controller('tickets')
export class TicketsController {
  constructor(
    private readonly tickets: TicketsService,
    private readonly callers: CallerService,
  ) {}

  @Get()
  async list(@CurrentUser() claims: AccessTokenClaims, @Query() query: ListTicketsQueryDto): Promise<TicketsPage> {
    return this.tickets.list(await this.callers.of(claims), query);
  }

  @Get('u/:uuid')
  async byUuid(@CurrentUser() claims: AccessTokenClaims, @Param('uuid') uuid: string): Promise<TicketDto> {
    return this.tickets.getByUuid(await this.callers.of(claims), uuid);
  }

  @Get(':id')
  async get(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<TicketDto> {
    return this.tickets.get(await this.callers.of(claims), id);
  }

  @Post()
  async create(@CurrentUser() claims: AccessTokenClaims, @Body() body: CreateTicketDto): Promise<TicketDto> {
    return this.tickets.create(await this.callers.of(claims), body);
  }

  @Put(':id')
  async update(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number, @Body() body: UpdateTicketDto): Promise<TicketDto> {
    return this.tickets.update(await this.callers.of(claims), id, body);
  }

  @AdminOnly()
  @Delete(':id')
  @HttpCode(200)
  async remove(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.tickets.remove(await this.callers.of(claims), id);
    return { message: 'ticket deleted' };
  }
}

/** spec 02 "Tags and kanban": the board's tickets (plan flag useKanban, at the gateway). */
@ApiTags('tickets')
@Controller('ticket')
export class KanbanController {
  constructor(
    private readonly tickets: TicketsService,
    private readonly callers: CallerService,
  ) {}

  @Get('kanban')
  async kanban(@CurrentUser() claims: AccessTokenClaims, @Query() query: KanbanTicketsQueryDto): Promise<TicketsPage> {
    return this.tickets.kanban(await this.callers.of(claims), query);
  }
}
