import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NameField, TIME_OF_DAY, WEEKDAYS_EN } from '@wa/server-kit';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, Matches, MaxLength, ValidateIf, ValidateNested } from 'class-validator';

/** One day of working hours: HH:mm to HH:mm (00:00–00:00: closed). */
export class QueueScheduleBody {
  @ApiProperty({ example: 'Segunda-feira' }) @IsString({ message: 'Obrigatório' }) @MaxLength(30) weekday: string;
  @ApiProperty({ enum: WEEKDAYS_EN }) @IsIn(WEEKDAYS_EN, { message: 'Dia inválido' }) weekdayEn: (typeof WEEKDAYS_EN)[number];
  @ApiProperty({ example: '08:00' }) @IsString({ message: 'Obrigatório' }) @Matches(TIME_OF_DAY, { message: 'Hora inválida' }) startTime: string;
  @ApiProperty({ example: '18:00' }) @IsString({ message: 'Obrigatório' }) @Matches(TIME_OF_DAY, { message: 'Hora inválida' }) endTime: string;
}

const SchedulesField = () =>
  applyDecorators(
    ApiPropertyOptional({ type: [QueueScheduleBody], description: 'working hours, a day at most once (used when scheduleType is queue)' }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(7),
    ValidateNested({ each: true }),
    Type(() => QueueScheduleBody),
  );

export class CreateQueueDto {
  @ApiProperty({ minLength: 2, maxLength: 50 })
  @NameField()
  name: string;

  @ApiProperty({ example: '#7c7c7c' })
  @IsString({ message: 'Required' })
  @Matches(/^#[0-9a-fA-F]{3,8}$|^[a-zA-Z]{3,20}$/, { message: 'Invalid color' })
  color: string;

  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(10000) greetingMessage?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(10000) outOfHoursMessage?: string;
  @ApiPropertyOptional() @IsOptional() @ValidateIf((_o, v) => v !== null) @IsInt() orderQueue?: number | null;

  @SchedulesField() schedules?: QueueScheduleBody[];
}

export class UpdateQueueDto {
  @ApiPropertyOptional({ minLength: 2, maxLength: 50 })
  @NameField({ optional: true })
  name?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Matches(/^#[0-9a-fA-F]{3,8}$|^[a-zA-Z]{3,20}$/, { message: 'Invalid color' })
  color?: string;

  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(10000) greetingMessage?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(10000) outOfHoursMessage?: string;
  @ApiPropertyOptional() @IsOptional() @ValidateIf((_o, v) => v !== null) @IsInt() orderQueue?: number | null;

  @SchedulesField() schedules?: QueueScheduleBody[];
}
