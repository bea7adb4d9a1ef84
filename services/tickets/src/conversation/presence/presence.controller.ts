import { Body, Controller, HttpCode, Param, ParseIntPipe, Post } from '@nestjs/common';
import { ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CHAT_PRESENCES, type ChatPresence, type RequestDto, type TicketPresenceRequest } from '@wa/contracts';
import { IsIn } from 'class-validator';
import type { Caller } from '../../identity/caller.service.js';
import { CurrentCaller } from '../../identity/current-caller.js';
import { ChatPresences } from './presence.js';

export class TicketPresenceDto implements RequestDto<TicketPresenceDto, TicketPresenceRequest> {
  @ApiProperty({ enum: CHAT_PRESENCES, description: 'composing (typing), recording (a voice note) or paused (stopped)' })
  @IsIn(CHAT_PRESENCES, { message: `state must be one of ${CHAT_PRESENCES.join(', ')}` })
  state: ChatPresence;
}

@ApiTags('tickets')
@Controller('tickets')
export class PresenceController {
  constructor(private readonly presences: ChatPresences) {}

  /** The agent types or records a voice note in the ticket's chat, or stops: the customer sees "digitando…" / "gravando…". */
  @Post(':ticketId/presence')
  @HttpCode(204)
  @ApiResponse({
    status: 204,
    description: 'told to the customer through the ticket’s connection (throttled; nothing when its session is down)',
  })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION: state is composing, recording or paused' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: a ticket the user may not see, or a closed one' })
  @ApiResponse({ status: 404, description: 'ERR_NO_TICKET_FOUND' })
  async presence(
    @CurrentCaller() caller: Caller,
    @Param('ticketId', ParseIntPipe) ticketId: number,
    @Body() body: TicketPresenceDto,
  ): Promise<void> {
    await this.presences.agent(caller, ticketId, body.state);
  }
}
