import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { TicketNoteDto } from '@wa/contracts';
import type { Caller } from '../../identity/caller.service.js';
import { CurrentCaller } from '../../identity/current-caller.js';
import { CreateNoteDto, ListNotesQueryDto } from './notes.dto.js';
import { NotesService } from './notes.service.js';

@ApiTags('ticket-notes')
@Controller('ticket-notes')
export class NotesController {
  constructor(private readonly notes: NotesService) {}

  @Post()
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateNoteDto): Promise<TicketNoteDto> {
    return this.notes.add(caller, body);
  }

  @Get('list')
  async list(@CurrentCaller() caller: Caller, @Query() query: ListNotesQueryDto): Promise<TicketNoteDto[]> {
    return this.notes.list(caller, query);
  }

  @Delete(':id')
  @HttpCode(200)
  async remove(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.notes.remove(caller, id);
    return { message: 'note deleted' };
  }
}
