import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NameField, WorkingDaysField, type WorkingDayBody } from '@wa/server-kit';
import { IsInt, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';

const SchedulesField = () => WorkingDaysField({ description: 'working hours, a day at most once (used when scheduleType is queue)' });

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

  @SchedulesField() schedules?: WorkingDayBody[];

  @ApiPropertyOptional({ description: 'the AI prompt answering its customers (a prompt of the company); null: none' })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsInt()
  promptId?: number | null;

  @ApiPropertyOptional({ description: 'the outside flow answering its customers (an integration of the company); null: none' })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsInt()
  integrationId?: number | null;
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

  @SchedulesField() schedules?: WorkingDayBody[];

  @ApiPropertyOptional({ description: 'the AI prompt answering its customers (a prompt of the company); null: none' })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsInt()
  promptId?: number | null;

  @ApiPropertyOptional({ description: 'the outside flow answering its customers (an integration of the company); null: none' })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsInt()
  integrationId?: number | null;
}
