import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { CreateQueueOptionRequest, QueueOptionsQuery, RequestDto, UpdateQueueOptionRequest } from '@wa/contracts';
import { Transform } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, Min, ValidateIf } from 'class-validator';

/** 1 to 999: "0" and "#" are the bot's keys to go back and start again. */
const OPTION = /^[1-9][0-9]{0,2}$/;
const OPTION_TEXT = 'Um número de 1 a 999 (0 e # voltam e recomeçam)';

const trimmed = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : value;

export class ListQueueOptionsQuery implements RequestDto<ListQueueOptionsQuery, QueueOptionsQuery> {
  @ApiProperty()
  @Transform(({ value }) => Number(value))
  @IsInt({ message: 'Obrigatório' })
  @Min(1, { message: 'Obrigatório' })
  queueId: number;

  @ApiPropertyOptional({ description: 'the option whose sub-options to list; omitted (or empty): the first level' })
  @IsOptional()
  @Transform(({ value }) => (value === '' || value === undefined || value === null || value === 'null' ? undefined : Number(value)))
  @IsInt()
  @Min(1)
  parentId?: number;
}

export class CreateQueueOptionDto implements RequestDto<CreateQueueOptionDto, CreateQueueOptionRequest> {
  @ApiProperty() @IsInt({ message: 'Obrigatório' }) @Min(1, { message: 'Obrigatório' }) queueId: number;

  @ApiPropertyOptional({ nullable: true, description: 'the option it goes under; null or omitted: the first level' })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsInt()
  @Min(1)
  parentId?: number | null;

  @ApiProperty({ maxLength: 100 })
  @Transform(trimmed)
  @IsString({ message: 'Obrigatório' })
  @IsNotEmpty({ message: 'Obrigatório' })
  @MaxLength(100)
  title: string;

  @ApiPropertyOptional({ description: 'what the bot sends when the customer picks it' })
  @IsOptional()
  @IsString()
  @MaxLength(10000)
  message?: string;

  @ApiProperty({ example: '1', description: 'what the customer answers to pick it: 1 to 999, unique on its level' })
  @Transform(trimmed)
  @IsString({ message: 'Obrigatório' })
  @Matches(OPTION, { message: OPTION_TEXT })
  option: string;
}

export class UpdateQueueOptionDto implements RequestDto<UpdateQueueOptionDto, UpdateQueueOptionRequest> {
  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @Transform(trimmed)
  @IsString()
  @IsNotEmpty({ message: 'Obrigatório' })
  @MaxLength(100)
  title?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(10000) message?: string;
  @ApiPropertyOptional() @IsOptional() @Transform(trimmed) @IsString() @Matches(OPTION, { message: OPTION_TEXT }) option?: string;
}
