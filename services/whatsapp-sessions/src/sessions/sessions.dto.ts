import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { MAX_PAGE_NUMBER, PageNumberField } from '@wa/server-kit';
import {
  SANDBOX_INBOUND_BATCH_MAX,
  SANDBOX_OFFLINE_MAX_SECONDS,
  type RequestDto,
  type SandboxContact,
  type SandboxContactsRequest,
  type SandboxDisconnectRequest,
  type SandboxInboundBatchRequest,
  type SandboxInboundRequest,
  type SandboxLeaveRequest,
  type SandboxOfflineRequest,
  type SandboxOutboxQuery,
} from '@wa/contracts';

/** A message the sandbox phone receives, as from a WhatsApp contact. */
export class SandboxInboundDto implements RequestDto<SandboxInboundDto, Omit<SandboxInboundRequest, 'media'>> {
  @ApiProperty({ example: '5511999990001', description: "the contact's number: 8 to 20 digits" })
  @IsString({ message: 'Required' })
  @Matches(/^\d{8,20}$/, { message: "from must be the contact's number: 8 to 20 digits" })
  from: string;

  @ApiPropertyOptional({ example: 'Maria', description: 'the name the contact shows (push name)' })
  @IsOptional()
  @IsString()
  @MaxLength(100, { message: 'Too Long!' })
  name?: string;

  @ApiProperty({ example: 'Olá', description: 'the text; with a file (multipart `media`), its caption and optional' })
  @IsOptional()
  @IsString({ message: 'Required' })
  @MaxLength(65_536, { message: 'Too Long!' })
  body: string;

  @ApiPropertyOptional({ description: 'WhatsApp message id; give the same one again to replay a message' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,128}$/, { message: 'id must be 1 to 128 letters, digits, _ or -' })
  id?: string;

  @ApiPropertyOptional({
    example: '120363041234567890',
    description: "a group message: the group's id (its jid's digits, before @g.us); `from` is the member who wrote it",
  })
  @IsOptional()
  @IsString()
  @Matches(/^\d{8,30}(-\d{8,12})?$/, { message: "groupId must be a WhatsApp group's id: 8 to 30 digits (an old group: creator-timestamp)" })
  groupId?: string;
}

/** Several messages at once: one delivery (one Baileys upsert), each message as in the single form. */
export class SandboxInboundBatchDto implements RequestDto<SandboxInboundBatchDto, SandboxInboundBatchRequest> {
  @ApiProperty({ type: [SandboxInboundDto], description: `1 to ${SANDBOX_INBOUND_BATCH_MAX} messages` })
  @IsArray({ message: 'messages must be a list' })
  @ArrayMinSize(1, { message: 'messages must hold at least one message' })
  @ArrayMaxSize(SANDBOX_INBOUND_BATCH_MAX, { message: `messages may hold at most ${SANDBOX_INBOUND_BATCH_MAX} messages` })
  @ValidateNested({ each: true })
  @Type(() => SandboxInboundDto)
  messages: SandboxInboundDto[];
}

export class OutboxQuery implements RequestDto<OutboxQuery, SandboxOutboxQuery> {
  @ApiPropertyOptional({ default: 1, maximum: MAX_PAGE_NUMBER })
  @PageNumberField()
  pageNumber?: number;
}

/** One contact of the sandbox phone's address book. */
export class SandboxContactDto implements RequestDto<SandboxContactDto, SandboxContact> {
  @ApiProperty({ example: '5511999990001' })
  @IsString({ message: 'Required' })
  @Matches(/^\d{8,20}$/, { message: 'number must be 8 to 20 digits' })
  number: string;
  @ApiProperty({ example: 'Maria' }) @IsString({ message: 'Required' }) @MaxLength(100, { message: 'Too Long!' }) name: string;
}

/** Most entries a sandbox address book takes at once. */
export const SANDBOX_CONTACTS_MAX = 5000;

/** The address book the sandbox phone answers from now on (what POST /contacts/import reads). */
export class SandboxContactsDto implements RequestDto<SandboxContactsDto, SandboxContactsRequest> {
  @ApiProperty({ type: [SandboxContactDto] })
  @IsArray({ message: 'contacts must be a list' })
  @ArrayMaxSize(SANDBOX_CONTACTS_MAX, { message: `contacts may hold at most ${SANDBOX_CONTACTS_MAX} entries` })
  @ValidateNested({ each: true })
  @Type(() => SandboxContactDto)
  contacts: SandboxContactDto[];
}

/** A customer of the sandbox phone who left WhatsApp. */
export class SandboxLeaveDto implements RequestDto<SandboxLeaveDto, SandboxLeaveRequest> {
  @ApiProperty({ example: '5511999990001', description: 'the number, digits with the country code' })
  @IsString({ message: 'Required' })
  @Matches(/^\d{8,20}$/, { message: 'number must be 8 to 20 digits' })
  number: string;
}

/** WhatsApp closes the sandbox phone's session with a close code (Baileys' DisconnectReason). */
export class SandboxDisconnectDto implements RequestDto<SandboxDisconnectDto, SandboxDisconnectRequest> {
  @ApiProperty({ example: 515, description: "WhatsApp's close code, as Baileys' DisconnectReason: 515, 401, 403, 440, 500, 408…" })
  @IsInt({ message: 'code must be a whole number' })
  @Min(400, { message: 'code must be 400 to 599' })
  @Max(599, { message: 'code must be 400 to 599' })
  code: number;
}

/** The sandbox phone loses its network for a while (what customers write meanwhile comes on the reconnect). */
export class SandboxOfflineDto implements RequestDto<SandboxOfflineDto, SandboxOfflineRequest> {
  @ApiProperty({ example: 30, description: `how long the phone has no network, in seconds: 1 to ${SANDBOX_OFFLINE_MAX_SECONDS}` })
  @IsInt({ message: 'seconds must be a whole number' })
  @Min(1, { message: `seconds must be 1 to ${SANDBOX_OFFLINE_MAX_SECONDS}` })
  @Max(SANDBOX_OFFLINE_MAX_SECONDS, { message: `seconds must be 1 to ${SANDBOX_OFFLINE_MAX_SECONDS}` })
  seconds: number;
}
