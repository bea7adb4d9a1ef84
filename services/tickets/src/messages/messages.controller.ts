import { Body, Controller, Get, Param, ParseIntPipe, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '@wa/auth';
import type { AccessTokenClaims, MessageDto, MessagesPage } from '@wa/contracts';
import { CallerService } from '../identity/caller.service.js';
import { ListMessagesQueryDto, SendMessageDto } from './messages.dto.js';
import { MessagesService } from './messages.service.js';

@ApiTags('messages')
@Controller('messages')
export class MessagesController {
  constructor(
    private readonly messages: MessagesService,
    private readonly callers: CallerService,
  ) {}

  @Get(':ticketId')
  async list(@CurrentUser() claims: AccessTokenClaims, @Param('ticketId', ParseIntPipe) ticketId: number, @Query() query: ListMessagesQueryDto): Promise<MessagesPage> {
    return this.messages.list(await this.callers.of(claims), ticketId, query.pageNumber ?? 1, query.cursor);
  }

  @Post(':ticketId')
  async send(@CurrentUser() claims: AccessTokenClaims, @Param('ticketId', ParseIntPipe) ticketId: number, @Body() body: SendMessageDto): Promise<MessageDto> {
    const quoted = typeof body.quotedMsg?.id === 'number' ? body.quotedMsg.id : undefined;
    return this.messages.send(await this.callers.of(claims), ticketId, body.body, quoted);
  }
}
