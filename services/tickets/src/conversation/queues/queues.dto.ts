import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { CreateQueueRequest, RequestDto, UpdateQueueRequest } from '@wa/contracts';
import { NameField, WorkingDaysField, type WorkingDayBody } from '@wa/server-kit';
import { IsInt, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';

const COLOR = /^#[0-9a-fA-F]{3,8}$|^[a-zA-Z]{3,20}$/;

/** An id that may be left out, or null (none), or a number. */
const NullableId = (description: string) => (target: object, property: string | symbol) => {
  ApiPropertyOptional({ description, nullable: true, type: Number })(target, property);
  IsOptional()(target, property);
  ValidateIf((_o, v) => v !== null)(target, property);
  IsInt()(target, property);
};

/** What a queue's create and edit share beyond its name and colour: all optional. */
class QueueFields {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(10000) greetingMessage?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(10000) outOfHoursMessage?: string;
  @NullableId('its place in the bot’s menu (then by name)') orderQueue?: number | null;
  @WorkingDaysField({ description: 'working hours, a day at most once (used when scheduleType is queue)' }) schedules?: WorkingDayBody[];
  @NullableId('the AI prompt answering its customers (a prompt of the company); null: none') promptId?: number | null;
  @NullableId('the outside flow answering its customers (an integration of the company); null: none') integrationId?: number | null;
}

export class CreateQueueDto extends QueueFields implements RequestDto<CreateQueueDto, CreateQueueRequest> {
  @ApiProperty({ minLength: 2, maxLength: 50 })
  @NameField()
  name: string;

  @ApiProperty({ example: '#7c7c7c' })
  @IsString({ message: 'Required' })
  @Matches(COLOR, { message: 'Invalid color' })
  color: string;
}

export class UpdateQueueDto extends QueueFields implements RequestDto<UpdateQueueDto, UpdateQueueRequest> {
  @ApiPropertyOptional({ minLength: 2, maxLength: 50 })
  @NameField({ optional: true })
  name?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Matches(COLOR, { message: 'Invalid color' })
  color?: string;
}
