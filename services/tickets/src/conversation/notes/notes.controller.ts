import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Query } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
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
  @ApiResponse({ status: 201, description: 'the note added: { id, note, ticketId, contactId, user: { id, name }, createdAt }' })
  @ApiResponse({ status: 404, description: 'ERR_NO_TICKET_FOUND, ERR_NO_CONTACT_FOUND' })
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateNoteDto): Promise<TicketNoteDto> {
    return this.notes.add(caller, body);
  }

  @Get('list')
  @ApiResponse({
    status: 200,
    description: 'the notes of a ticket or contact, oldest first: [{ id, note, ticketId, contactId, user: { id, name }, createdAt }]',
  })
  async list(@CurrentCaller() caller: Caller, @Query() query: ListNotesQueryDto): Promise<TicketNoteDto[]> {
    return this.notes.list(caller, query);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "{ message: 'note deleted' }" })
  @ApiResponse({ status: 403, description: "ERR_NO_PERMISSION: another user's note" })
  @ApiResponse({ status: 404, description: 'ERR_NO_NOTE_FOUND' })
  async remove(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.notes.remove(caller, id);
    return { message: 'note deleted' };
  }
}
