import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '@wa/auth';
import type { AccessTokenClaims, TicketNoteDto } from '@wa/contracts';
import { CallerService } from '../../identity/caller.service.js';
import { CreateNoteDto, ListNotesQueryDto } from './notes.dto.js';
import { NotesService } from './notes.service.js';

@ApiTags('ticket-notes')
@Controller('ticket-notes')
export class NotesController {
  constructor(
    private readonly notes: NotesService,
    private readonly callers: CallerService,
  ) {}

  @Post()
  async create(@CurrentUser() claims: AccessTokenClaims, @Body() body: CreateNoteDto): Promise<TicketNoteDto> {
    return this.notes.add(await this.callers.of(claims), body);
  }

  @Get('list')
  async list(@CurrentUser() claims: AccessTokenClaims, @Query() query: ListNotesQueryDto): Promise<TicketNoteDto[]> {
    return this.notes.list(await this.callers.of(claims), query);
  }

  @Delete(':id')
  @HttpCode(200)
  async remove(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.notes.remove(await this.callers.of(claims), id);
    return { message: 'note deleted' };
  }
}
