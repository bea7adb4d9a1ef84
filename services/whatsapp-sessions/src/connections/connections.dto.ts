import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, type TransformFnParams } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Matches,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import {
  CAMPAIGN_HOURS_FORMAT,
  type ConnectionProviderKind,
  type CreateConnectionRequest,
  type RequestDto,
  type UpdateConnectionRequest,
} from '@wa/contracts';

export const CHANNELS: ConnectionProviderKind[] = ['sandbox', 'baileys'];
export const PROVIDERS = ['beta', 'stable'];
const TEXT_MAX = 10_000;
const NUMBER_MAX = 1_000_000;

/** The connection form sends numbers typed into inputs; "12" is taken as 12. */
const numeric = ({ value }: TransformFnParams) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value);
/** An emptied select ("") means none. */
const nullableId = (p: TransformFnParams) => (p.value === '' ? null : numeric(p));
/** Surrounding blanks are not part of a name ("  " is no name). */
const trimmed = ({ value }: TransformFnParams) => (typeof value === 'string' ? value.trim() : value);
/** A cleared text field may arrive as null. */
const text = ({ value }: TransformFnParams) => (value === null ? '' : value);

/** A whole number typed into the form (0 or more), optional. */
const OptionalCount = () => applyDecorators(IsOptional(), Transform(numeric), IsInt(), Min(0), Max(NUMBER_MAX));
/** The id of another record, optional; an emptied select ("") or null means none. */
const OptionalId = () =>
  applyDecorators(
    IsOptional(),
    Transform(nullableId),
    ValidateIf((_o, v) => v !== null),
    IsInt(),
    Min(1),
  );

/** Every field of the connection form but the name (spec 01 §3, defaults §9). */
class ConnectionFields {
  @ApiPropertyOptional({ description: 'the company has exactly one default connection' })
  @IsOptional()
  @IsBoolean()
  isDefault?: boolean;

  @ApiPropertyOptional({ description: 'required when the connection has more than one queue' })
  @IsOptional()
  @Transform(text)
  @IsString()
  @MaxLength(TEXT_MAX, { message: 'Too Long!' })
  greetingMessage?: string;

  @ApiPropertyOptional({ description: "the product's own spelling" })
  @IsOptional()
  @Transform(text)
  @IsString()
  @MaxLength(TEXT_MAX, { message: 'Too Long!' })
  complationMessage?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Transform(text)
  @IsString()
  @MaxLength(TEXT_MAX, { message: 'Too Long!' })
  outOfHoursMessage?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Transform(text)
  @IsString()
  @MaxLength(TEXT_MAX, { message: 'Too Long!' })
  ratingMessage?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Transform(text)
  @IsString()
  @MaxLength(TEXT_MAX, { message: 'Too Long!' })
  expiresInactiveMessage?: string;

  /** its length, alphabet and uniqueness are checked by the service, which answers every refusal alike */
  @ApiPropertyOptional({
    nullable: true,
    description:
      'token of the public messages API. Empty or null: the server issues one (32 random bytes, base64url). One of your own: at least 32 characters of letters, digits, - and _, not used by any other connection',
  })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString()
  token?: string | null;

  @ApiPropertyOptional({ default: 0 })
  @OptionalCount()
  expiresTicket?: number;

  @ApiPropertyOptional({ default: 0 })
  @OptionalCount()
  timeToTransfer?: number;

  @ApiPropertyOptional({ nullable: true })
  @OptionalId()
  transferQueueId?: number | null;

  @ApiPropertyOptional({ default: 0 })
  @OptionalCount()
  timeUseBotQueues?: number;

  @ApiPropertyOptional({ default: 3 })
  @OptionalCount()
  maxUseBotQueues?: number;

  @ApiPropertyOptional({ enum: PROVIDERS, default: 'beta' })
  @IsOptional()
  @IsIn(PROVIDERS)
  provider?: string;

  @ApiPropertyOptional({ enum: CHANNELS, description: 'how the session is held; default DEFAULT_CHANNEL (sandbox)' })
  @IsOptional()
  @IsIn(CHANNELS)
  channel?: ConnectionProviderKind;

  @ApiPropertyOptional({ nullable: true })
  @OptionalId()
  promptId?: number | null;

  @ApiPropertyOptional({ type: [Number] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(500)
  @IsInt({ each: true })
  @Min(1, { each: true })
  queueIds?: number[];

  @ApiPropertyOptional({ default: 0, description: 'campaign sends a day on this connection; 0: no cap' })
  @OptionalCount()
  campaignDailyLimit?: number;

  @ApiPropertyOptional({ default: false, description: "a new number's campaign cap ramps up over its first weeks" })
  @IsOptional()
  @IsBoolean()
  campaignWarmup?: boolean;

  @ApiPropertyOptional({ default: '', example: '08:00-18:00', description: "when campaigns may send, 'HH:MM-HH:MM'; '' for any hour" })
  @IsOptional()
  @Transform(text)
  @IsString()
  @Matches(CAMPAIGN_HOURS_FORMAT, { message: "Use HH:MM-HH:MM (e.g. 08:00-18:00), or '' for any hour." })
  campaignHours?: string;
}

/** Spec 01 §5: name required, 2 to 50 (messages as the form shows them). */
export class CreateConnectionDto extends ConnectionFields implements RequestDto<CreateConnectionDto, CreateConnectionRequest> {
  @ApiProperty({ minLength: 2, maxLength: 50 })
  @Transform(trimmed)
  @IsString({ message: 'Required' })
  @IsNotEmpty({ message: 'Required' })
  @MinLength(2, { message: 'Too Short!' })
  @MaxLength(50, { message: 'Too Long!' })
  name: string;
}

export class UpdateConnectionDto extends ConnectionFields implements RequestDto<UpdateConnectionDto, UpdateConnectionRequest> {
  @ApiPropertyOptional({ minLength: 2, maxLength: 50 })
  @IsOptional()
  @Transform(trimmed)
  @IsString({ message: 'Required' })
  @IsNotEmpty({ message: 'Required' })
  @MinLength(2, { message: 'Too Short!' })
  @MaxLength(50, { message: 'Too Long!' })
  name?: string;
}
