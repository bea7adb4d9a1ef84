import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  ParseIntPipe,
  Post,
  Put,
  Query,
  UploadedFiles,
  UseInterceptors,
} from '@nestjs/common';
import { FilesInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiResponse, ApiTags } from '@nestjs/swagger';
import { DiscardUploadsInterceptor, DomainError, mediaUploadOptions, type UploadedDiskFile } from '@wa/server-kit';
import type { MessageDto, MessagesPage } from '@wa/contracts';
import type { Caller } from '../../identity/caller.service.js';
import { CurrentCaller } from '../../identity/current-caller.js';
import { EditMessageDto, ListMessagesQueryDto, ReactMessageDto, reactionEmoji, requiredText, SendMessageDto } from './messages.dto.js';
import { MessagesService } from './messages.service.js';
import { WritableTicketInterceptor } from './writable-ticket.interceptor.js';

const MAX_FILES_PER_SEND = 10;

@ApiTags('messages')
@Controller('messages')
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  @Get(':ticketId')
  @ApiResponse({
    status: 200,
    description: "a page of the ticket's messages, newest first: { messages: [message…], hasMore, nextCursor, ticket }",
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: a ticket the user may not see' })
  @ApiResponse({ status: 404, description: 'ERR_NO_TICKET_FOUND' })
  async list(
    @CurrentCaller() caller: Caller,
    @Param('ticketId', ParseIntPipe) ticketId: number,
    @Query() query: ListMessagesQueryDto,
  ): Promise<MessagesPage> {
    return this.messages.list(caller, ticketId, query.pageNumber ?? 1, query.cursor, query.preview === true);
  }

  /**
   * JSON: a text. Multipart: `medias` (up to 10 files: images, audio, video, documents, each checked by
   * its bytes) with `body` as the first one's caption; answers the first message (each is announced).
   */
  @Post(':ticketId')
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiBody({ type: SendMessageDto })
  @ApiResponse({
    status: 201,
    description:
      'the message stored and queued to send (the first, with files): { id, ticketId, contactId, body, fromMe, mediaUrl, mediaType, ack, read, isDeleted, isEdited, quotedMsg, createdAt, … }',
  })
  @ApiResponse({
    status: 400,
    description:
      'ERR_VALIDATION (no text and no file, a file refused, bad coordinates, a contact without a name or number), ERR_WAPP_NOT_INITIALIZED, ERR_SENDING_WAPP_MSG',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: a ticket the user may not write to (closed, or of another user)' })
  @ApiResponse({ status: 404, description: 'ERR_NO_TICKET_FOUND' })
  @ApiResponse({ status: 413, description: 'ERR_PAYLOAD_TOO_LARGE: a file over the limit' })
  @UseInterceptors(
    WritableTicketInterceptor,
    FilesInterceptor('medias', MAX_FILES_PER_SEND, mediaUploadOptions(MAX_FILES_PER_SEND)),
    DiscardUploadsInterceptor,
  )
  async send(
    @CurrentCaller() caller: Caller,
    @Param('ticketId', ParseIntPipe) ticketId: number,
    @Body() body: SendMessageDto,
    @UploadedFiles() files: UploadedDiskFile[] | undefined,
  ): Promise<MessageDto> {
    const quoted = typeof body.quotedMsg?.id === 'number' ? body.quotedMsg.id : undefined;
    if (body.location !== undefined || body.contact !== undefined) {
      if (files && files.length > 0)
        throw new DomainError(
          'ERR_VALIDATION',
          { details: [{ field: 'medias', messages: ['A location or a contact goes without files.'] }] },
          'medias: A location or a contact goes without files.',
        );
      return this.messages.sendSpecial(caller, ticketId, body.location, body.contact, quoted);
    }
    if (files && files.length > 0)
      return (await this.messages.sendMedia(caller, ticketId, files, body.body ?? '', quoted, body.voice === true))[0];
    return this.messages.send(caller, ticketId, requiredText(body.body), quoted);
  }

  /** Reacts to a message with an emoji ('' takes our reaction away): sent to WhatsApp, shown on the message. */
  @Post(':id/react')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description: 'the message with its reactions: { id, …, reactions: [{ emoji, fromMe, from }] }',
  })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION: not one emoji; ERR_WAPP_NOT_INITIALIZED' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: a ticket the user may not see' })
  @ApiResponse({ status: 404, description: 'ERR_NO_MESSAGE_FOUND' })
  async react(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number, @Body() body: ReactMessageDto): Promise<MessageDto> {
    return this.messages.react(caller, id, reactionEmoji(body.emoji));
  }

  /** Changes the text of a message sent from here, on WhatsApp first (ERR_EDITING_WAPP_MSG when it refuses). */
  @Post('edit/:id')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description:
      'the message edited: { id, ticketId, contactId, body, fromMe, mediaUrl, mediaType, ack, read, isDeleted, isEdited, quotedMsg, createdAt, … }',
  })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION, ERR_EDITING_WAPP_MSG: WhatsApp refused the edit (too old, not ours)' })
  @ApiResponse({ status: 404, description: 'ERR_NO_MESSAGE_FOUND' })
  async edit(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number, @Body() body: EditMessageDto): Promise<MessageDto> {
    return this.messages.edit(caller, id, requiredText(body.body));
  }

  /** The same edit, as `PUT /messages/{id}` (spec 01 §7). */
  @Put(':id')
  @ApiResponse({
    status: 200,
    description:
      'the message edited: { id, ticketId, contactId, body, fromMe, mediaUrl, mediaType, ack, read, isDeleted, isEdited, quotedMsg, createdAt, … }',
  })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION, ERR_EDITING_WAPP_MSG: WhatsApp refused the edit (too old, not ours)' })
  @ApiResponse({ status: 404, description: 'ERR_NO_MESSAGE_FOUND' })
  async editByPut(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseIntPipe) id: number,
    @Body() body: EditMessageDto,
  ): Promise<MessageDto> {
    return this.edit(caller, id, body);
  }

  /** Deletes a message sent from here for everyone (ERR_DELETE_WAPP_MSG when WhatsApp refuses); it stays, marked deleted. */
  @Delete(':id')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description:
      'the message, marked deleted (isDeleted: true): { id, ticketId, contactId, body, fromMe, mediaUrl, mediaType, ack, read, isDeleted, isEdited, quotedMsg, createdAt, … }',
  })
  @ApiResponse({ status: 400, description: 'ERR_DELETE_WAPP_MSG: WhatsApp refused to delete it' })
  @ApiResponse({ status: 404, description: 'ERR_NO_MESSAGE_FOUND' })
  async remove(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<MessageDto> {
    return this.messages.remove(caller, id);
  }
}
