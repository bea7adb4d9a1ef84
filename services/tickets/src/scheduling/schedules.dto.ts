import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { CreateScheduleRequest, RequestDto, SchedulesQuery, UpdateScheduleRequest } from '@wa/contracts';
import { Transform, Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { Omittable, PageNumberField } from '@wa/server-kit';

const MAX_ID = 2_147_483_647;
/** the body is checked as it is stored: "a    " is one character, too short */
const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/**
 * spec 01 §5 "Schedule": body required, at least 5 characters ("Mensagem muito curta"); contactId and
 * sendAt required ("Obrigatório"). sendAt is an ISO time, or a time without offset (what a datetime-local
 * field sends), read on the company's clocks.
 */
export class CreateScheduleDto implements RequestDto<CreateScheduleDto, CreateScheduleRequest> {
  @ApiProperty({ minLength: 5, maxLength: 10_000 })
  @Transform(trimmed)
  @IsString({ message: 'Obrigatório' })
  @IsNotEmpty({ message: 'Obrigatório' })
  @MinLength(5, { message: 'Mensagem muito curta' })
  @MaxLength(10_000)
  body: string;

  @ApiProperty()
  @Type(() => Number)
  @IsInt({ message: 'Obrigatório' })
  @Min(1, { message: 'Obrigatório' })
  @Max(MAX_ID)
  contactId: number;

  @ApiProperty({ example: '2026-11-24T15:00' })
  @IsString({ message: 'Obrigatório' })
  @IsNotEmpty({ message: 'Obrigatório' })
  @MaxLength(40)
  sendAt: string;

  /** sent by the product's client; a schedule is its author's (the caller's) */
  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(MAX_ID) userId?: number;
}

export class UpdateScheduleDto implements RequestDto<UpdateScheduleDto, UpdateScheduleRequest> {
  @ApiPropertyOptional({ minLength: 5, maxLength: 10_000 })
  @Omittable()
  @Transform(trimmed)
  @IsString({ message: 'Obrigatório' })
  @IsNotEmpty({ message: 'Obrigatório' })
  @MinLength(5, { message: 'Mensagem muito curta' })
  @MaxLength(10_000)
  body?: string;

  @ApiPropertyOptional()
  @Omittable()
  @Type(() => Number)
  @IsInt({ message: 'Obrigatório' })
  @Min(1, { message: 'Obrigatório' })
  @Max(MAX_ID)
  contactId?: number;

  @ApiPropertyOptional({ example: '2026-11-24T15:00' })
  @Omittable()
  @IsString({ message: 'Obrigatório' })
  @IsNotEmpty({ message: 'Obrigatório' })
  @MaxLength(40)
  sendAt?: string;

  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(MAX_ID) userId?: number;
}

export class ListSchedulesQueryDto implements RequestDto<ListSchedulesQueryDto, SchedulesQuery> {
  /** the contact's name or number, or the message's text */
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) searchParam?: string;
  @ApiPropertyOptional({ default: 1 }) @PageNumberField() pageNumber?: number;
  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(MAX_ID) contactId?: number;
  /** the calendar's visible range: schedules whose sendAt falls in [from, to) (ISO times) */
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(40) from?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(40) to?: string;
  /** sent by the product's client; what a caller sees is decided by their token */
  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(MAX_ID) userId?: number;
  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(MAX_ID) companyId?: number;
}
