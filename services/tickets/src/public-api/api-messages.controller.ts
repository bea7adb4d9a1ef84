import { Body, Controller, Get, Headers, HttpCode, Param, ParseIntPipe, Post, UploadedFiles, UseInterceptors } from '@nestjs/common';
import { FilesInterceptor } from '@nestjs/platform-express';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiHeader,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { ApiCaller, PublicApi, type ApiIdentity } from '@wa/auth';
import type { ApiMessageStatus, ApiSendMessageRequest, RequestDto } from '@wa/contracts';
import { DiscardUploadsInterceptor, DomainError, FlagField, mediaUploadOptions, type UploadedDiskFile } from '@wa/server-kit';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { ApiMessagesService } from './api-messages.service.js';

const MAX_FILES = 10;

export class ApiSendMessageDto implements RequestDto<ApiSendMessageDto, ApiSendMessageRequest> {
  @ApiProperty({ description: 'the number with country and area code, digits only (no mask)', example: '5511987654321' })
  @IsString({ message: 'Obrigatório' })
  @IsNotEmpty({ message: 'Obrigatório' })
  @MaxLength(64)
  number!: string;

  @ApiPropertyOptional({ description: "the text; required without medias, the first file's caption with them", maxLength: 65536 })
  @IsOptional()
  @IsString()
  @MaxLength(65536)
  body?: string;

  @ApiPropertyOptional({ description: 'true/false or 1/0: the one audio file in medias is sent as a WhatsApp voice note (OGG/Opus)' })
  @FlagField()
  voice?: boolean;

  @ApiPropertyOptional({
    description:
      'a place to send instead of a text: { latitude (-90..90), longitude (-180..180), name?, address? } (multipart: its JSON text)',
  })
  @IsOptional()
  @Transform(({ value }) => parseJson(value))
  location?: ApiSendMessageRequest['location'];

  @ApiPropertyOptional({ description: 'a contact card to send instead of a text: { name, number } (multipart: its JSON text)' })
  @IsOptional()
  @Transform(({ value }) => parseJson(value))
  contact?: ApiSendMessageRequest['contact'];
}

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** What a send answers (and its lookup, later): the example the API's documentation shows. */
const API_MESSAGE_EXAMPLE: ApiMessageStatus = {
  id: 48213,
  ticketId: 1207,
  number: '5511987654321',
  body: 'Seu pedido #1234 saiu para entrega.',
  mediaType: 'chat',
  state: 'queued',
  ack: 0,
  reason: null,
  createdAt: '2026-11-29T14:03:10.125Z',
  updatedAt: '2026-11-29T14:03:10.125Z',
};

/**
 * The public messages API (spec 02 §7 "External messages API"): `Authorization: Bearer <the connection's
 * token>`; the gateway admits the token (its connection sends), the company's plan (useExternalApi) and the
 * connection's pace, and passes the call here with a signed identity in its place. Versioned under
 * `/api/v1/messages`; `/api/messages` (the spec's and Whaticket's paths) answers alike, as its alias.
 */
@ApiTags('public messages API')
@ApiBearerAuth()
@Controller(['api/v1/messages', 'api/messages'])
export class ApiMessagesController {
  constructor(private readonly api: ApiMessagesService) {}

  @PublicApi()
  @Post('send')
  @HttpCode(202)
  @ApiOperation({
    summary:
      "Send a text, files (medias) with the text as the first one's caption, a voice note (one audio + voice), a location or a contact card, to a number",
  })
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiBody({ type: ApiSendMessageDto })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'a retried call with the same key (24 h) answers the first call and sends nothing twice',
  })
  @ApiResponse({
    status: 202,
    description: 'stored and queued to send: { id, ticketId, state: "queued", ack: 0, … }; GET /api/v1/messages/{id} follows it',
    example: API_MESSAGE_EXAMPLE,
  })
  @ApiResponse({
    status: 400,
    description:
      'ERR_VALIDATION (no number, no body and no file, a file refused, a voice note that is not one readable audio, bad coordinates, an empty contact), ERR_WAPP_INVALID_CONTACT, ERR_WAPP_NOT_INITIALIZED',
  })
  @ApiResponse({ status: 401, description: 'not a connection API token, or its company is disabled' })
  @ApiResponse({ status: 403, description: 'the plan has no external API (useExternalApi)' })
  @ApiResponse({ status: 429, description: "the connection's queue is full: Retry-After says when a send fits again" })
  @UseInterceptors(FilesInterceptor('medias', MAX_FILES, mediaUploadOptions(MAX_FILES)), DiscardUploadsInterceptor)
  send(
    @ApiCaller() api: ApiIdentity,
    @Body() body: ApiSendMessageDto,
    @UploadedFiles() files: UploadedDiskFile[] | undefined,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<ApiMessageStatus> {
    if (idempotencyKey !== undefined && !/^[\x21-\x7e]{1,200}$/.test(idempotencyKey)) {
      throw new DomainError('ERR_VALIDATION', { details: [{ field: 'Idempotency-Key', messages: ['1 to 200 visible ASCII characters'] }] });
    }
    return this.api.send(api, body.number, body.body ?? '', files ?? [], idempotencyKey, {
      voice: body.voice === true,
      location: body.location,
      contact: body.contact,
    });
  }

  @PublicApi()
  @Get(':id')
  @ApiOperation({ summary: 'A message sent through this connection: state (queued, sent, delivered, read) and ack' })
  @ApiResponse({
    status: 200,
    description: '{ id, ticketId, number, state, ack, … }',
    example: { ...API_MESSAGE_EXAMPLE, state: 'delivered', ack: 3, updatedAt: '2026-11-29T14:03:12.400Z' },
  })
  @ApiResponse({ status: 404, description: 'ERR_NO_MESSAGE_FOUND: not a message this connection sent' })
  status(@ApiCaller() api: ApiIdentity, @Param('id', ParseIntPipe) id: number): Promise<ApiMessageStatus> {
    return this.api.status(api, id);
  }
}
