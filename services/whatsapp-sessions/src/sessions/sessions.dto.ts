import { LID_DIGITS } from '@wa/domain';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  IsUrl,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { FlagField, MAX_PAGE_NUMBER, PageNumberField } from '@wa/server-kit';
import {
  CHAT_PRESENCES,
  SANDBOX_INBOUND_BATCH_MAX,
  type ChatPresence,
  type SandboxPresenceRequest,
  SANDBOX_HISTORY_MAX,
  SANDBOX_OFFLINE_MAX_SECONDS,
  type RequestDto,
  type SandboxContact,
  type SandboxContactsRequest,
  type SandboxDisconnectRequest,
  type SandboxInboundBatchRequest,
  type SandboxInboundRequest,
  type SandboxCallRequest,
  type SandboxCallsQuery,
  type SandboxLeaveRequest,
  type SandboxLidMappingRequest,
  type SandboxOfflineRequest,
  type SandboxOutboxQuery,
  type PairingCodeRequest,
  type SandboxProfilePictureRequest,
  type SandboxHistoryContact,
  type SandboxHistoryMessage,
  type SandboxHistoryRequest,
} from '@wa/contracts';

/** A place a sandbox customer shares. */
export class SandboxLocationDto {
  @ApiProperty({ example: -23.55 }) @IsNumber({}, { message: 'latitude must be a number' }) @Min(-90) @Max(90) latitude: number;
  @ApiProperty({ example: -46.63 }) @IsNumber({}, { message: 'longitude must be a number' }) @Min(-180) @Max(180) longitude: number;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) name?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(500) address?: string;
}

/** A sandbox customer's reaction. */
export class SandboxReactionDto {
  @ApiProperty()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,128}$/, { message: 'waMessageId must be 1 to 128 letters, digits, _ or -' })
  waMessageId: string;
  @ApiProperty({ example: '👍' }) @IsString() @MaxLength(32) emoji: string;
}

/** A message the sandbox phone receives, as from a WhatsApp contact. */
export class SandboxInboundDto implements RequestDto<SandboxInboundDto, Omit<SandboxInboundRequest, 'media'>> {
  @ApiPropertyOptional({ example: '5511999990001', description: "the contact's number: 8 to 20 digits (omitted for a bare LID)" })
  @ValidateIf((o: SandboxInboundDto) => o.fromLid === undefined || o.from !== undefined)
  @IsString({ message: 'Required' })
  @Matches(/^\d{8,20}$/, { message: "from must be the contact's number: 8 to 20 digits" })
  from?: string;

  @ApiPropertyOptional({
    example: '123456789012345',
    description: "the customer's LID (digits): with `from` a LID-addressed message carrying the number, alone a bare LID",
  })
  @IsOptional()
  @IsString()
  @Matches(LID_DIGITS, { message: 'fromLid must be a LID: 6 to 30 digits' })
  fromLid?: string;

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

  @ApiPropertyOptional({
    description:
      'what Baileys emits for a message it could not decrypt (no body needed): shown waiting; a later inbound with the same `id` and a body is the resend that replaces it',
  })
  @IsOptional()
  @IsBoolean({ message: 'undecryptable must be true or false' })
  undecryptable?: boolean;

  @ApiPropertyOptional({ description: 'with an audio file: recorded as a voice note (ptt); true/false or 1/0' })
  @FlagField()
  voice?: boolean;

  @ApiPropertyOptional({ description: 'a location the customer shares: { latitude, longitude, name?, address? } (no body needed)' })
  @IsOptional()
  @ValidateNested()
  @Type(() => SandboxLocationDto)
  location?: SandboxLocationDto;

  @ApiPropertyOptional({ description: 'contact cards the customer shares, as vCard texts (no body needed)', type: [String] })
  @IsOptional()
  @IsArray({ message: 'vcards must be a list of vCard texts' })
  @ArrayMinSize(1, { message: 'vcards must hold at least one vCard' })
  @ArrayMaxSize(20, { message: 'vcards may hold at most 20 vCards' })
  @IsString({ each: true })
  @MaxLength(10_000, { each: true })
  vcards?: string[];

  @ApiPropertyOptional({ description: "a reaction: { waMessageId, emoji } on a message of the chat ('' removes it; no body needed)" })
  @IsOptional()
  @ValidateNested()
  @Type(() => SandboxReactionDto)
  reaction?: SandboxReactionDto;
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

/** WhatsApp tells the sandbox phone which number a LID stands for (Baileys' `lid-mapping.update`). */
export class SandboxLidMappingDto implements RequestDto<SandboxLidMappingDto, SandboxLidMappingRequest> {
  @ApiProperty({ example: '123456789012345', description: "the LID's digits" })
  @IsString({ message: 'Required' })
  @Matches(LID_DIGITS, { message: 'lid must be a LID: 6 to 30 digits' })
  lid: string;

  @ApiProperty({ example: '5511999990001', description: 'the phone number it stands for: 8 to 20 digits' })
  @IsString({ message: 'Required' })
  @Matches(/^\d{8,20}$/, { message: 'pn must be a phone number: 8 to 20 digits' })
  pn: string;
}

/** The number of the phone to pair with a pairing code instead of the QR. */
export class PairingCodeDto implements RequestDto<PairingCodeDto, PairingCodeRequest> {
  @ApiProperty({ example: '5511999990001', description: "the phone's number: digits with the country code, 10 to 15" })
  @IsString({ message: 'Required' })
  @Matches(/^\d{10,15}$/, { message: "number must be the phone's number with its country code: 10 to 15 digits" })
  number: string;
}

/** The profile picture the sandbox's WhatsApp answers for a number. */
export class SandboxProfilePictureDto implements RequestDto<SandboxProfilePictureDto, SandboxProfilePictureRequest> {
  @ApiProperty({ example: '5511999990001', description: 'the number, digits with the country code' })
  @IsString({ message: 'Required' })
  @Matches(/^\d{8,20}$/, { message: 'number must be 8 to 20 digits' })
  number: string;

  @ApiProperty({ type: String, nullable: true, example: 'https://pps.whatsapp.net/v/t61/foto.jpg', description: 'null: none' })
  @ValidateIf((o: SandboxProfilePictureDto) => o.url !== null)
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'url must be an http(s) address, or null' },
  )
  @MaxLength(2000, { message: 'Too Long!' })
  url: string | null;
}

/** A customer types or records in their chat with the sandbox phone, or stops. */
export class SandboxPresenceDto implements RequestDto<SandboxPresenceDto, SandboxPresenceRequest> {
  @ApiProperty({ example: '5511999990001', description: "the customer: 8 to 20 digits, or a LID as '<digits>@lid'" })
  @IsString({ message: 'Required' })
  @Matches(/^(\d{8,20}|\d{6,30}@lid)$/, { message: "from must be the customer's number (8 to 20 digits) or a LID ('<digits>@lid')" })
  from: string;

  @ApiProperty({ enum: CHAT_PRESENCES, description: 'composing (typing), recording (a voice note) or paused (stopped)' })
  @IsIn(CHAT_PRESENCES, { message: `state must be one of ${CHAT_PRESENCES.join(', ')}` })
  state: ChatPresence;
}

/** A customer calls the sandbox phone. */
export class SandboxCallDto implements RequestDto<SandboxCallDto, SandboxCallRequest> {
  @ApiProperty({
    example: '5511999990001',
    description: "the caller: 8 to 20 digits, or a LID as '<digits>@lid' (WhatsApp hides the number)",
  })
  @IsString({ message: 'Required' })
  @Matches(/^(\d{8,20}|\d{6,30}@lid)$/, { message: "from must be the caller's number (8 to 20 digits) or a LID ('<digits>@lid')" })
  from: string;

  @ApiPropertyOptional({ default: false, description: 'a video call' })
  @IsOptional()
  @IsBoolean({ message: 'isVideo must be true or false' })
  isVideo?: boolean;
}

export class CallsQuery implements RequestDto<CallsQuery, SandboxCallsQuery> {
  @ApiPropertyOptional({ default: 1, maximum: MAX_PAGE_NUMBER })
  @PageNumberField()
  pageNumber?: number;
}

/** A contact of the sandbox phone's history sync. */
export class SandboxHistoryContactDto implements RequestDto<SandboxHistoryContactDto, SandboxHistoryContact> {
  @ApiProperty({ example: '5511999990001', description: 'the number, digits with the country code' })
  @IsString({ message: 'Required' })
  @Matches(/^\d{8,20}$/, { message: 'number must be 8 to 20 digits' })
  number: string;

  @ApiProperty({ example: 'Maria' })
  @IsString({ message: 'Required' })
  @MaxLength(100, { message: 'Too Long!' })
  name: string;

  @ApiPropertyOptional({ example: '123456789012345', description: "the contact's LID (digits): the company's LID map learns the pair" })
  @IsOptional()
  @IsString()
  @Matches(LID_DIGITS, { message: 'lid must be a LID: 6 to 30 digits' })
  lid?: string;
}

/** A message of the sandbox phone's history sync. */
export class SandboxHistoryMessageDto implements RequestDto<SandboxHistoryMessageDto, SandboxHistoryMessage> {
  @ApiProperty({ example: '5511999990001', description: "the customer's number: the conversation" })
  @IsString({ message: 'Required' })
  @Matches(/^\d{8,20}$/, { message: "from must be the contact's number: 8 to 20 digits" })
  from: string;

  @ApiPropertyOptional({ example: '123456789012345', description: "the customer's LID (digits), when the conversation is addressed by it" })
  @IsOptional()
  @IsString()
  @Matches(LID_DIGITS, { message: 'fromLid must be a LID: 6 to 30 digits' })
  fromLid?: string;

  @ApiProperty({ example: 'Bom dia' })
  @IsString({ message: 'Required' })
  @Matches(/\S/, { message: 'Required' })
  @MaxLength(65_536, { message: 'Too Long!' })
  body: string;

  @ApiProperty({ example: 1764400000000, description: 'when it was sent, ms since epoch' })
  @IsInt({ message: 'timestamp must be a whole number of ms since epoch' })
  @Min(1, { message: 'timestamp must be a whole number of ms since epoch' })
  timestamp: number;

  @ApiPropertyOptional({ default: false, description: 'sent from the phone to `from`' })
  @IsOptional()
  @IsBoolean({ message: 'fromMe must be true or false' })
  fromMe?: boolean;

  @ApiPropertyOptional({ description: 'WhatsApp message id; drawn when absent' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,128}$/, { message: 'id must be 1 to 128 letters, digits, _ or -' })
  id?: string;
}

/** WhatsApp's history sync reaching the sandbox phone (Baileys' `messaging-history.set`). */
export class SandboxHistoryDto implements RequestDto<SandboxHistoryDto, SandboxHistoryRequest> {
  @ApiPropertyOptional({ type: [SandboxHistoryContactDto], description: `at most ${SANDBOX_HISTORY_MAX}` })
  @IsOptional()
  @IsArray({ message: 'contacts must be a list' })
  @ArrayMaxSize(SANDBOX_HISTORY_MAX, { message: `contacts may hold at most ${SANDBOX_HISTORY_MAX} entries` })
  @ValidateNested({ each: true })
  @Type(() => SandboxHistoryContactDto)
  contacts?: SandboxHistoryContactDto[];

  @ApiPropertyOptional({ type: [SandboxHistoryMessageDto], description: `at most ${SANDBOX_HISTORY_MAX}` })
  @IsOptional()
  @IsArray({ message: 'messages must be a list' })
  @ArrayMaxSize(SANDBOX_HISTORY_MAX, { message: `messages may hold at most ${SANDBOX_HISTORY_MAX} messages` })
  @ValidateNested({ each: true })
  @Type(() => SandboxHistoryMessageDto)
  messages?: SandboxHistoryMessageDto[];
}
