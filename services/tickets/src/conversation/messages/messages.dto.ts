import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { DomainError, FlagField, MAX_PAGE_NUMBER, PageNumberField } from '@wa/server-kit';
import type { EditMessageRequest, MessagesQuery, ReactMessageRequest, RequestDto, SendMessageRequest } from '@wa/contracts';

export class SendMessageDto implements RequestDto<SendMessageDto, SendMessageRequest> {
  /** required with no file; with files, the first one's caption */
  @ApiPropertyOptional({ maxLength: 65536 })
  @IsOptional()
  @IsString({ message: 'Required' })
  @MaxLength(65536)
  body?: string;

  @ApiPropertyOptional({ description: 'true/false, or 1/0 as the original web client sends it' }) @FlagField() read?: boolean;
  @ApiPropertyOptional({ description: 'true/false, or 1/0' }) @FlagField() fromMe?: boolean;
  @ApiPropertyOptional() @IsOptional() @ValidateIf((_o, v) => v !== null) @IsString() mediaUrl?: string | null;

  /** the message answered: `{ id }` of one of this ticket's messages (multipart: its JSON text) */
  @ApiPropertyOptional() @IsOptional() @Transform(({ value }) => parseQuoted(value)) quotedMsg?: { id?: number } | null;

  /** with one audio file: sent as a WhatsApp voice note (transcoded to OGG/Opus) */
  @ApiPropertyOptional({ description: 'true/false or 1/0: the one audio file is sent as a voice note (OGG/Opus, ptt)' })
  @FlagField()
  voice?: boolean;

  /** instead of a text: a place (checked by the send: latitude -90..90, longitude -180..180) */
  @ApiPropertyOptional({ description: '{ latitude, longitude, name?, address? }: a place, sent instead of a text' })
  @IsOptional()
  location?: { latitude: number; longitude: number; name?: string; address?: string };

  /** instead of a text: a contact card (checked by the send: a name, a number of 8 to 20 digits) */
  @ApiPropertyOptional({ description: '{ name, number }: a contact card, sent instead of a text' })
  @IsOptional()
  contact?: { name: string; number: string };
}

/** `POST /messages/{id}/react`: one emoji, or '' to take our reaction away. */
export class ReactMessageDto implements RequestDto<ReactMessageDto, ReactMessageRequest> {
  @ApiProperty({ description: "one emoji ('' removes the reaction)", maxLength: 32 })
  @IsString({ message: 'Required' })
  @MaxLength(32)
  emoji: string;
}

/** The edit call: the new text (the other fields the original client sends are taken and ignored). */
export class EditMessageDto implements RequestDto<EditMessageDto, EditMessageRequest> {
  @ApiPropertyOptional({ maxLength: 65536 }) @IsOptional() @IsString({ message: 'Required' }) @MaxLength(65536) body?: string;
  @ApiPropertyOptional() @FlagField() read?: boolean;
  @ApiPropertyOptional() @FlagField() fromMe?: boolean;
  @ApiPropertyOptional() @IsOptional() @ValidateIf((_o, v) => v !== null) @IsString() mediaUrl?: string | null;
  @ApiPropertyOptional() @IsOptional() quotedMsg?: unknown;
}

export class ListMessagesQueryDto implements RequestDto<ListMessagesQueryDto, MessagesQuery> {
  @ApiPropertyOptional({ default: 1, maximum: MAX_PAGE_NUMBER }) @PageNumberField() pageNumber?: number;
  /** a look at the conversation (the ticket preview): its unread count stays as it is */
  @ApiPropertyOptional({ description: 'true: the messages are read without marking the ticket read (preview)' })
  @FlagField()
  preview?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(500) cursor?: string;
}

function parseQuoted(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return null;
  }
}

/** A text message needs text: 'Required' when absent, 'The message is empty' when blank (spec 01 §5). */
export function requiredText(body: string | undefined): string {
  const fail = (message: string) =>
    new DomainError('ERR_VALIDATION', { details: [{ field: 'body', messages: [message] }] }, `body: ${message}`);
  if (typeof body !== 'string' || body.length === 0) throw fail('Required');
  if (!/\S/.test(body)) throw fail('The message is empty');
  return body;
}

/** One emoji (a grapheme made of emoji code points, with their joiners and variation selectors), or '' to remove. */
export function reactionEmoji(emoji: string): string {
  const fail = (message: string) =>
    new DomainError('ERR_VALIDATION', { details: [{ field: 'emoji', messages: [message] }] }, `emoji: ${message}`);
  if (typeof emoji !== 'string') throw fail('Required');
  if (emoji === '') return '';
  const graphemes = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(emoji)];
  const parts = [...emoji];
  const joiner = (c: string) => c === '\u200D' || c === '\uFE0F' || c === '\u20E3';
  const pictograph = (c: string) => /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator})$/u.test(c);
  const allowed = (c: string) => joiner(c) || pictograph(c) || /^(?:\p{Emoji_Modifier}|[#*0-9])$/u.test(c);
  if (graphemes.length !== 1 || !parts.every(allowed) || !parts.some(pictograph)) throw fail('Must be one emoji.');
  return emoji;
}
