import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { DomainError } from '../errors/domain-error.js';
import { TIME_OF_DAY, WEEKDAYS_EN, type WorkingDay } from '@wa/domain';

/** One day of working hours in a request body: HH:mm to HH:mm (00:00–00:00: closed). Queues and companies alike. */
export class WorkingDayBody {
  @ApiProperty({ example: 'Segunda-feira' }) @IsString({ message: 'Obrigatório' }) @MaxLength(30) weekday: string;
  @ApiProperty({ enum: WEEKDAYS_EN }) @IsIn(WEEKDAYS_EN, { message: 'Dia inválido' }) weekdayEn: (typeof WEEKDAYS_EN)[number];
  @ApiProperty({ example: '08:00' })
  @IsString({ message: 'Obrigatório' })
  @Matches(TIME_OF_DAY, { message: 'Hora inválida' })
  startTime: string;
  @ApiProperty({ example: '18:00' })
  @IsString({ message: 'Obrigatório' })
  @Matches(TIME_OF_DAY, { message: 'Hora inválida' })
  endTime: string;
}

/** A body's `schedules`: up to seven days, each validated (optional unless `required`). */
export const WorkingDaysField = (opts: { required?: boolean; description?: string } = {}) =>
  applyDecorators(
    (opts.required ? ApiProperty : ApiPropertyOptional)({
      type: [WorkingDayBody],
      description: opts.description ?? 'working hours, a day at most once',
    }),
    ...(opts.required ? [] : [IsOptional()]),
    IsArray({ message: 'Obrigatório' }),
    ArrayMaxSize(7),
    ValidateNested({ each: true }),
    Type(() => WorkingDayBody),
  );

/** The working hours sent, each day at most once ('Dia repetido' otherwise), in week order (Sunday first). */
export function workingDaysOf(days: readonly WorkingDayBody[] | undefined): WorkingDay[] {
  if (!days) return [];
  const seen = new Set<string>();
  for (const d of days) {
    if (seen.has(d.weekdayEn))
      throw new DomainError(
        'ERR_VALIDATION',
        { details: [{ field: 'schedules', messages: ['Dia repetido'] }] },
        `schedules: ${d.weekdayEn} twice`,
      );
    seen.add(d.weekdayEn);
  }
  return [...days]
    .sort((a, b) => WEEKDAYS_EN.indexOf(a.weekdayEn) - WEEKDAYS_EN.indexOf(b.weekdayEn))
    .map((d) => ({ weekday: d.weekday.trim(), weekdayEn: d.weekdayEn, startTime: d.startTime, endTime: d.endTime }));
}
