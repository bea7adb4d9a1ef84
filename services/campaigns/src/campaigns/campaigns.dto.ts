import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FlagField, NameField, PageNumberField } from '@wa/server-kit';
import { Transform } from 'class-transformer';
import { IsDateString, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { applyDecorators } from '@nestjs/common';

/** A message variant's largest text (WhatsApp takes about 65k characters). */
const MESSAGE_MAX = 10_000;

/** '' (the form's empty select) is no value; a numeric text a number. */
const idOrNull = (value: unknown): unknown =>
  value === '' ? null : typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;

/** An optional id: a positive integer, or null / '' for none. */
function IdField(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }) => idOrNull(value)),
    ValidateIf((_o, v) => v !== undefined && v !== null),
    IsInt(),
    Min(1),
    Max(2_147_483_647),
  );
}

function MessageField(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ maxLength: MESSAGE_MAX }),
    Transform(({ value }) => (value === null ? '' : value)),
    IsOptional(),
    IsString(),
    MaxLength(MESSAGE_MAX, { message: 'Too Long!' }),
  );
}

/** The fields of a campaign the client writes (spec 02 §3 "Campaign"); status, media and dates of the run are the server's. */
export class CampaignFieldsDto {
  @MessageField() message1?: string;
  @MessageField() message2?: string;
  @MessageField() message3?: string;
  @MessageField() message4?: string;
  @MessageField() message5?: string;
  @MessageField() confirmationMessage1?: string;
  @MessageField() confirmationMessage2?: string;
  @MessageField() confirmationMessage3?: string;
  @MessageField() confirmationMessage4?: string;
  @MessageField() confirmationMessage5?: string;

  @ApiPropertyOptional() @FlagField() confirmation?: boolean;

  /** ISO date; null or '' for none (INATIVA); a date in the past or within seconds means now */
  @ApiPropertyOptional({ nullable: true, format: 'date-time' })
  @Transform(({ value }) => (value === '' ? null : value))
  @ValidateIf((_o, v) => v !== undefined && v !== null)
  @IsDateString({ strict: false }, { message: 'Invalid date' })
  scheduledAt?: string | null;

  /** the company's connection */
  @ApiPropertyOptional({ nullable: true }) @IdField() whatsappId?: number | null;
  /** the company's contact list */
  @ApiPropertyOptional({ nullable: true }) @IdField() contactListId?: number | null;

  /** a tag's id as text, or 'Nenhuma' (none); '' / null read as 'Nenhuma' */
  @ApiPropertyOptional({ default: 'Nenhuma' })
  @Transform(({ value }) =>
    value === '' || value === null ? 'Nenhuma' : typeof value === 'number' && Number.isInteger(value) ? String(value) : value,
  )
  @IsOptional()
  @IsString()
  @Matches(/^(Nenhuma|[1-9]\d{0,9})$/, { message: "A tag's id or 'Nenhuma'" })
  tagListId?: string;

  /** a file list of the company (sent after the message) */
  @ApiPropertyOptional({ nullable: true }) @IdField() fileListId?: number | null;
}

export class CreateCampaignDto extends CampaignFieldsDto {
  @ApiProperty({ minLength: 2, maxLength: 50 }) @NameField() name: string;
}

export class UpdateCampaignDto extends CampaignFieldsDto {
  @ApiPropertyOptional({ minLength: 2, maxLength: 50 }) @NameField({ optional: true }) name?: string;
}

export class ListCampaignsQueryDto {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) searchParam?: string;
  @ApiPropertyOptional({ default: 1 }) @PageNumberField() pageNumber?: number;
}
