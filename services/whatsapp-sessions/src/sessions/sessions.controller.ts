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
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { DiscardUploadsInterceptor, mediaUploadOptions, type UploadedDiskFile } from '@wa/server-kit';
import { ApiConsumes, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '@wa/auth';
import type {
  PairingCodeResponse,
  SandboxCallItem,
  SandboxHistoryResponse,
  SandboxOutboxItem,
  SandboxPresencesResponse,
} from '@wa/contracts';
import {
  CallsQuery,
  OutboxQuery,
  PairingCodeDto,
  SandboxProfilePictureDto,
  SandboxCallDto,
  SandboxPresenceDto,
  SandboxContactsDto,
  SandboxDisconnectDto,
  SandboxHistoryDto,
  SandboxInboundBatchDto,
  SandboxInboundDto,
  SandboxLeaveDto,
  SandboxLidMappingDto,
  SandboxOfflineDto,
} from './sessions.dto.js';
import { SessionsService, type SessionPlacement } from './sessions.service.js';

/** Start, restart (new pairing) and end a connection's session; the sandbox phone's test hooks. Admins of the connection's company only. */
@ApiTags('whatsappsession')
@AdminOnly()
@Controller('whatsappsession')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Post(':id')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description: "{ message: 'Starting session.' }: the QR code and state follow on the socket (whatsappSession events)",
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_WAPP_FOUND' })
  async start(@Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.sessions.start(id);
    return { message: 'Starting session.' };
  }

  /** The "new QR" button: forgets the pairing and starts again. */
  @Put(':id')
  @ApiResponse({
    status: 200,
    description: "{ message: 'Starting session.' }: the pairing is forgotten and a new QR code follows on the socket",
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_WAPP_FOUND' })
  async restart(@Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.sessions.restart(id);
    return { message: 'Starting session.' };
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "{ message: 'Session disconnected.' }" })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_WAPP_FOUND' })
  async end(@Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.sessions.end(id);
    return { message: 'Session disconnected.' };
  }

  /** Which replica holds the session (operators); also as `/placement`. */
  @Get(':id')
  @ApiResponse({ status: 200, description: 'where the session runs: { connectionId, status, owner }' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_WAPP_FOUND' })
  placement(@Param('id', ParseIntPipe) id: number): Promise<SessionPlacement> {
    return this.sessions.placement(id);
  }

  @Get(':id/placement')
  @ApiResponse({ status: 200, description: 'where the session runs: { connectionId, status, owner }' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_WAPP_FOUND' })
  placementOf(@Param('id', ParseIntPipe) id: number): Promise<SessionPlacement> {
    return this.sessions.placement(id);
  }

  /** JSON, or multipart with a file `media` (a photo, audio, video or document; `body` its caption). */
  @Post(':id/sandbox/inbound')
  @HttpCode(202)
  @ApiResponse({ status: 202, description: "the customer's message the sandbox phone received, on its way in: { id } (its WhatsApp id)" })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION; ERR_WAPP_NOT_INITIALIZED: the sandbox session is not connected' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({
    status: 404,
    description: 'ERR_NO_WAPP_FOUND; ERR_NOT_FOUND: the sandbox provider is not enabled (test and development only)',
  })
  @ApiConsumes('application/json', 'multipart/form-data')
  @UseInterceptors(FileInterceptor('media', mediaUploadOptions(1)), DiscardUploadsInterceptor)
  inbound(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: SandboxInboundDto,
    @UploadedFile() file: UploadedDiskFile | undefined,
  ): Promise<{ id: string }> {
    return this.sessions.inbound(id, body, file);
  }

  @Post(':id/sandbox/inbound/batch')
  @HttpCode(202)
  @ApiResponse({ status: 202, description: 'the messages received, on their way in: { ids }' })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION; ERR_WAPP_NOT_INITIALIZED: the sandbox session is not connected' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({
    status: 404,
    description: 'ERR_NO_WAPP_FOUND; ERR_NOT_FOUND: the sandbox provider is not enabled (test and development only)',
  })
  inboundBatch(@Param('id', ParseIntPipe) id: number, @Body() body: SandboxInboundBatchDto): Promise<{ ids: string[] }> {
    return this.sessions.inboundBatch(id, body.messages);
  }

  /** The sandbox phone's address book (what an import of the phone's contacts reads). */
  @Put(':id/sandbox/contacts')
  @ApiResponse({ status: 200, description: "the sandbox phone's address book replaced: { count }" })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({
    status: 404,
    description: 'ERR_NO_WAPP_FOUND; ERR_NOT_FOUND: the sandbox provider is not enabled (test and development only)',
  })
  async sandboxContacts(@Param('id', ParseIntPipe) id: number, @Body() body: SandboxContactsDto): Promise<{ count: number }> {
    return this.sessions.sandboxContacts(id, body.contacts);
  }

  /** The customer left WhatsApp: sends to the number are refused from now on, as WhatsApp refuses them. */
  @Post(':id/sandbox/leave')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: '{ number }: the number left WhatsApp' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({
    status: 404,
    description: 'ERR_NO_WAPP_FOUND; ERR_NOT_FOUND: the sandbox provider is not enabled (test and development only)',
  })
  sandboxLeave(@Param('id', ParseIntPipe) id: number, @Body() body: SandboxLeaveDto): Promise<{ number: string }> {
    return this.sessions.sandboxLeave(id, body.number);
  }

  /**
   * WhatsApp tells the sandbox phone which number a LID stands for (Baileys' `lid-mapping.update`): kept in the
   * company's LID map; a bare-LID contact and the number's contact become one.
   */
  @Post(':id/sandbox/lid-mapping')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: '{ lid, pn }: the mapping WhatsApp announces' })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION; ERR_WAPP_NOT_INITIALIZED: the sandbox session is not connected' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({
    status: 404,
    description: 'ERR_NO_WAPP_FOUND; ERR_NOT_FOUND: the sandbox provider is not enabled (test and development only)',
  })
  sandboxLidMapping(@Param('id', ParseIntPipe) id: number, @Body() body: SandboxLidMappingDto): Promise<{ lid: string; pn: string }> {
    return this.sessions.sandboxLidMapping(id, body.lid, body.pn);
  }

  /**
   * WhatsApp bans the sandbox phone's number: the session ends as a real one ends on a 403 (DISCONNECTED, pairing
   * forgotten, `connection.session` with reason `banned`). Starting the session again pairs a new phone.
   */
  @Post(':id/sandbox/ban')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: '{ message }: the sandbox number banned' })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION; ERR_WAPP_NOT_INITIALIZED: the sandbox session is not connected' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({
    status: 404,
    description: 'ERR_NO_WAPP_FOUND; ERR_NOT_FOUND: the sandbox provider is not enabled (test and development only)',
  })
  async sandboxBan(@Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.sessions.sandboxBan(id);
    return { message: 'The number was banned; the session ended.' };
  }

  /**
   * WhatsApp closes the sandbox phone's session with `code`, as Baileys' socket closes, and the session does what
   * the disconnect table says: 515 reopens at once (a 401 within seconds after it too: a false logout), 401 logs out
   * (pairing forgotten), 403 is a ban, 440 stops it (`replaced`), 500 is retried a few times, anything else reconnects
   * with back-off. The close comes right after this answer, as a socket's does.
   */
  @Post(':id/sandbox/disconnect')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: '{ code }: the session dropped with this disconnect code' })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION; ERR_WAPP_NOT_INITIALIZED: the sandbox session is not connected' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({
    status: 404,
    description: 'ERR_NO_WAPP_FOUND; ERR_NOT_FOUND: the sandbox provider is not enabled (test and development only)',
  })
  async sandboxDisconnect(@Param('id', ParseIntPipe) id: number, @Body() body: SandboxDisconnectDto): Promise<{ code: number }> {
    await this.sessions.sandboxDisconnect(id, body.code);
    return { code: body.code };
  }

  /**
   * The sandbox phone loses its network for `seconds`: the session drops as on a network loss (TIMEOUT) and reconnects
   * by the disconnect table once the network is back. Messages injected meanwhile are answered 202 with their ids and
   * held; they arrive on the reconnect (the offline backlog), in the order written, each with the time it was written.
   */
  @Post(':id/sandbox/offline')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: '{ seconds }: the session offline for this long' })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION; ERR_WAPP_NOT_INITIALIZED: the sandbox session is not connected' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({
    status: 404,
    description: 'ERR_NO_WAPP_FOUND; ERR_NOT_FOUND: the sandbox provider is not enabled (test and development only)',
  })
  async sandboxOffline(@Param('id', ParseIntPipe) id: number, @Body() body: SandboxOfflineDto): Promise<{ seconds: number }> {
    await this.sessions.sandboxOffline(id, body.seconds);
    return { seconds: body.seconds };
  }

  /**
   * A pairing code, the alternative to the QR: the admin types it on the phone whose number is given (WhatsApp >
   * Linked devices > Link with phone number). Answered as WhatsApp shows it (`XXXX-XXXX`) while the connection waits
   * for a pairing (status qrcode; otherwise ERR_WAPP_NOT_INITIALIZED). The status stays qrcode until the phone takes
   * the code, then goes PAIRING and CONNECTED as after a QR scan.
   */
  @Post(':id/pairing-code')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: '{ code }: the code to type on the phone (Linked devices, link with phone number)' })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION; ERR_WAPP_NOT_INITIALIZED: the sandbox session is not connected' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_WAPP_FOUND' })
  pairingCode(@Param('id', ParseIntPipe) id: number, @Body() body: PairingCodeDto): Promise<PairingCodeResponse> {
    return this.sessions.pairingCode(id, body.number);
  }

  /** The profile picture the sandbox's WhatsApp answers for a number from now on (`url` null: none, the default). */
  @Put(':id/sandbox/profile-picture')
  @ApiResponse({ status: 200, description: '{ number, url }: the picture answered for the number from now on' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({
    status: 404,
    description: 'ERR_NO_WAPP_FOUND; ERR_NOT_FOUND: the sandbox provider is not enabled (test and development only)',
  })
  async sandboxProfilePicture(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: SandboxProfilePictureDto,
  ): Promise<{ number: string; url: string | null }> {
    await this.sessions.sandboxProfilePicture(id, body.number, body.url);
    return { number: body.number, url: body.url };
  }

  /**
   * The sandbox phone is unpaired: its session starts over waiting for a pairing (status qrcode, with a QR nothing
   * scans). A pairing code asked then pairs it a moment later with the number given (PAIRING, then CONNECTED).
   */
  @Post(':id/sandbox/unpair')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: '{ message }: the phone unlinked the session' })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION; ERR_WAPP_NOT_INITIALIZED: the sandbox session is not connected' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({
    status: 404,
    description: 'ERR_NO_WAPP_FOUND; ERR_NOT_FOUND: the sandbox provider is not enabled (test and development only)',
  })
  async sandboxUnpair(@Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.sessions.sandboxUnpair(id);
    return { message: 'The phone was unpaired; the session waits for a pairing.' };
  }

  /**
   * WhatsApp's history sync reaches the sandbox phone, as Baileys' `messaging-history.set` (what a newly linked phone
   * hands over): the contacts join its address book (one with a `lid`: the company's LID map learns the pair), the
   * messages go on as history, each with its own `timestamp`; only those sent within HISTORY_IMPORT_HOURS are
   * imported (published marked `history`), older ones are dropped. Answers the contacts taken and the messages' ids.
   */
  @Post(':id/sandbox/history')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: 'the history sync delivered: { contacts, ids }' })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION; ERR_WAPP_NOT_INITIALIZED: the sandbox session is not connected' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({
    status: 404,
    description: 'ERR_NO_WAPP_FOUND; ERR_NOT_FOUND: the sandbox provider is not enabled (test and development only)',
  })
  sandboxHistory(@Param('id', ParseIntPipe) id: number, @Body() body: SandboxHistoryDto): Promise<SandboxHistoryResponse> {
    return this.sessions.sandboxHistory(id, body);
  }

  /**
   * A customer calls the sandbox phone (Baileys' `call` event, status `offer`): it rings, and the offer is published
   * once (`wa.call.*`). Answers the call's id; GET …/sandbox/calls shows it ringing until the session rejects it.
   */
  @Post(':id/sandbox/call')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: '{ callId }: a call offered to the connection' })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION; ERR_WAPP_NOT_INITIALIZED: the sandbox session is not connected' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({
    status: 404,
    description: 'ERR_NO_WAPP_FOUND; ERR_NOT_FOUND: the sandbox provider is not enabled (test and development only)',
  })
  sandboxCall(@Param('id', ParseIntPipe) id: number, @Body() body: SandboxCallDto): Promise<{ callId: string }> {
    return this.sessions.sandboxCall(id, body.from, body.isVideo === true);
  }

  /** A customer types or records a voice note in their chat with the sandbox phone, or stops (Baileys' `presence.update`). */
  @Post(':id/sandbox/presence')
  @HttpCode(204)
  @ApiResponse({ status: 204, description: "the customer's presence is announced (presence.wa.*; the ticket's chat shows it)" })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION; ERR_WAPP_NOT_INITIALIZED: the sandbox session is not connected' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({
    status: 404,
    description: 'ERR_NO_WAPP_FOUND; ERR_NOT_FOUND: the sandbox provider is not enabled (test and development only)',
  })
  async sandboxPresence(@Param('id', ParseIntPipe) id: number, @Body() body: SandboxPresenceDto): Promise<void> {
    await this.sessions.sandboxPresence(id, body.from, body.state);
  }

  /** What the sandbox phone told chats of its user's presence (an agent typing), oldest first: the last 100. */
  @Get(':id/sandbox/presence')
  @ApiResponse({ status: 200, description: "{ presences: [{ to, state, at }] }: the phone user's presence as the customers saw it" })
  @ApiResponse({ status: 400, description: 'ERR_WAPP_NOT_INITIALIZED: the sandbox session is not connected' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({
    status: 404,
    description: 'ERR_NO_WAPP_FOUND; ERR_NOT_FOUND: the sandbox provider is not enabled (test and development only)',
  })
  presences(@Param('id', ParseIntPipe) id: number): Promise<SandboxPresencesResponse> {
    return this.sessions.sandboxPresences(id);
  }

  /** The calls the sandbox phone got, newest first (20 a page): `state` ringing, or rejected (with `rejectedAt`). */
  @Get(':id/sandbox/calls')
  @ApiResponse({
    status: 200,
    description: "the sandbox phone's calls, newest first: { items: [{ callId, from, isVideo, state, offeredAt, rejectedAt }], hasMore }",
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({
    status: 404,
    description: 'ERR_NO_WAPP_FOUND; ERR_NOT_FOUND: the sandbox provider is not enabled (test and development only)',
  })
  calls(@Param('id', ParseIntPipe) id: number, @Query() query: CallsQuery): Promise<{ items: SandboxCallItem[]; hasMore: boolean }> {
    return this.sessions.callsPage(id, query.pageNumber ?? 1);
  }

  @Get(':id/sandbox/outbox')
  @ApiResponse({
    status: 200,
    description: 'what the connection sent, newest first: { items: [{ waMessageId, to, body, ack, sentAt, kind, … }], hasMore }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({
    status: 404,
    description: 'ERR_NO_WAPP_FOUND; ERR_NOT_FOUND: the sandbox provider is not enabled (test and development only)',
  })
  outbox(@Param('id', ParseIntPipe) id: number, @Query() query: OutboxQuery): Promise<{ items: SandboxOutboxItem[]; hasMore: boolean }> {
    return this.sessions.outboxPage(id, query.pageNumber ?? 1);
  }
}
