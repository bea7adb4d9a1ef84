import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { MAX_PAGE_NUMBER, PageNumberField } from '@wa/server-kit';
import type { CreateTicketRequest, KanbanTicketsQuery, RequestDto, TicketsQuery, TicketStatus, UpdateTicketRequest } from '@wa/contracts';

const STATUSES: TicketStatus[] = ['pending', 'open', 'closed'];
/** ids are PostgreSQL `int`s: a larger value is refused (400), never sent to the database */
const MAX_ID = 2_147_483_647;

/** The app sends lists as JSON text (`queueIds=[1,2]`) or repeated params; both are accepted. */
function toIntList({ value }: { value: unknown }): unknown {
  if (value === undefined || value === null || value === '') return undefined;
  let raw: unknown = value;
  if (typeof value === 'string') {
    try {
      raw = JSON.parse(value);
    } catch {
      raw = value.split(',');
    }
  }
  const list = Array.isArray(raw) ? raw : [raw];
  return list.map((v) => (typeof v === 'number' ? v : /^\d+$/.test(String(v)) ? Number(v) : v));
}

const toBool = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : value === true || value === 'true');

export class ListTicketsQueryDto implements RequestDto<ListTicketsQueryDto, TicketsQuery> {
  @ApiPropertyOptional({ enum: STATUSES }) @IsOptional() @IsIn(STATUSES) status?: TicketStatus;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) searchParam?: string;
  @ApiPropertyOptional({ default: 1, maximum: MAX_PAGE_NUMBER }) @PageNumberField() pageNumber?: number;
  @ApiPropertyOptional({ description: 'cursor from the previous page (nextCursor)' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  cursor?: string;
  @ApiPropertyOptional() @IsOptional() @Transform(toBool) @IsBoolean() showAll?: boolean;
  @ApiPropertyOptional() @IsOptional() @Transform(toBool) @IsBoolean() withUnreadMessages?: boolean;
  @ApiPropertyOptional({ type: String, description: 'JSON array of queue ids' })
  @IsOptional()
  @Transform(toIntList)
  @IsArray()
  @ArrayMaxSize(200)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(MAX_ID, { each: true })
  queueIds?: number[];
  @ApiPropertyOptional({ type: String, description: 'JSON array of user ids (admins)' })
  @IsOptional()
  @Transform(toIntList)
  @IsArray()
  @ArrayMaxSize(200)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(MAX_ID, { each: true })
  users?: number[];
  @ApiPropertyOptional({ type: String, description: 'JSON array of tag ids' })
  @IsOptional()
  @Transform(toIntList)
  @IsArray()
  @ArrayMaxSize(200)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(MAX_ID, { each: true })
  tags?: number[];
  @ApiPropertyOptional({ example: '2026-11-22' }) @IsOptional() @Matches(/^\d{4}-\d{2}-\d{2}$/) date?: string;
  @ApiPropertyOptional({ example: '2026-11-22' }) @IsOptional() @Matches(/^\d{4}-\d{2}-\d{2}$/) updatedAt?: string;
}

export class CreateTicketDto implements RequestDto<CreateTicketDto, CreateTicketRequest> {
  @ApiPropertyOptional() @Type(() => Number) @IsInt() contactId: number;
  @ApiPropertyOptional() @IsOptional() @ValidateIf((_o, v) => v !== null) @Type(() => Number) @IsInt() queueId?: number | null;
  @ApiPropertyOptional() @IsOptional() @ValidateIf((_o, v) => v !== null) @Type(() => Number) @IsInt() whatsappId?: number | null;
  @ApiPropertyOptional() @IsOptional() @ValidateIf((_o, v) => v !== null) @Type(() => Number) @IsInt() userId?: number | null;
  @ApiPropertyOptional({ enum: STATUSES }) @IsOptional() @IsIn(STATUSES) status?: TicketStatus;
}

export class UpdateTicketDto implements RequestDto<UpdateTicketDto, UpdateTicketRequest> {
  @ApiPropertyOptional({ enum: STATUSES }) @IsOptional() @IsIn(STATUSES) status?: TicketStatus;
  @ApiPropertyOptional() @IsOptional() @ValidateIf((_o, v) => v !== null) @IsInt() userId?: number | null;
  @ApiPropertyOptional() @IsOptional() @ValidateIf((_o, v) => v !== null) @IsInt() queueId?: number | null;
  @ApiPropertyOptional() @IsOptional() @ValidateIf((_o, v) => v !== null) @IsInt() whatsappId?: number | null;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() useIntegration?: boolean;
  @ApiPropertyOptional() @IsOptional() @ValidateIf((_o, v) => v !== null) @IsInt() promptId?: number | null;
  @ApiPropertyOptional() @IsOptional() @ValidateIf((_o, v) => v !== null) @IsInt() integrationId?: number | null;
}

/** GET /ticket/kanban (spec 02): the board's tickets; `queueIds` as JSON; `teste` is accepted (the spec does not say what it means). */
export class KanbanTicketsQueryDto implements RequestDto<KanbanTicketsQueryDto, KanbanTicketsQuery> {
  @ApiPropertyOptional({ type: String, description: 'JSON array of queue ids' })
  @IsOptional()
  @Transform(toIntList)
  @IsArray()
  @ArrayMaxSize(200)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(MAX_ID, { each: true })
  queueIds?: number[];
  @ApiPropertyOptional({ description: 'sent by the product’s client; its meaning is not shown, so it changes nothing' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  teste?: string;
  @ApiPropertyOptional({ description: 'cursor from the previous page (nextCursor)' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  cursor?: string;
  @ApiPropertyOptional({ default: 1, maximum: MAX_PAGE_NUMBER }) @PageNumberField() pageNumber?: number;
}
