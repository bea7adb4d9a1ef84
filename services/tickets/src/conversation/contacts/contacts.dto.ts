import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type {
  ContactExtraInfoRequest,
  ContactsQuery,
  CreateContactRequest,
  ImportPhoneContactsRequest,
  RequestDto,
  UpdateContactRequest,
} from '@wa/contracts';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsEmail,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { NameField, PageNumberField, TextField } from '@wa/server-kit';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** One extra-info row of a contact (name and value). */
export class ExtraInfoDto implements RequestDto<ExtraInfoDto, ContactExtraInfoRequest> {
  @ApiProperty({ maxLength: 100 }) @TextField(1, 100) name: string;
  @ApiProperty({ maxLength: 1000 }) @IsString() @MaxLength(1000) value: string;
}

/** What both the add and the edit form take besides name and number: an email, when given a valid one; extra info rows. */
class ContactDetailsDto {
  @ApiPropertyOptional()
  @IsOptional()
  @ValidateIf((_o, v) => v !== '' && v !== null)
  @IsEmail({}, { message: 'Invalid email' })
  @MaxLength(200)
  email?: string | null;
  @ApiPropertyOptional({ type: [ExtraInfoDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => ExtraInfoDto)
  extraInfo?: ExtraInfoDto[];
}

/** spec 01 §5: name 2–50, number 8–50, a valid email when one is given. */
export class CreateContactDto extends ContactDetailsDto implements RequestDto<CreateContactDto, CreateContactRequest> {
  @ApiProperty({ minLength: 2, maxLength: 50 }) @NameField() name: string;
  @ApiProperty({ minLength: 8, maxLength: 50, example: '5511987654321' }) @TextField(8, 50) number: string;
}

export class UpdateContactDto extends ContactDetailsDto implements RequestDto<UpdateContactDto, UpdateContactRequest> {
  @ApiPropertyOptional({ minLength: 2, maxLength: 50 }) @NameField({ optional: true }) name?: string;
  @ApiPropertyOptional({ minLength: 8, maxLength: 50 }) @TextField(8, 50, { optional: true }) number?: string;
}

export class ListContactsQueryDto implements RequestDto<ListContactsQueryDto, ContactsQuery> {
  @ApiPropertyOptional({ description: 'part of the name, number or email' }) @IsOptional() @IsString() @MaxLength(100) searchParam?: string;
  @ApiPropertyOptional({ default: 1 }) @PageNumberField() pageNumber?: number;
  @ApiPropertyOptional({ example: '2026-11-24', description: 'created that day (company time)' }) @IsOptional() @Matches(DAY) date?: string;
  @ApiPropertyOptional({ example: '2026-11-01', description: 'created from that day on' }) @IsOptional() @Matches(DAY) dateStart?: string;
  @ApiPropertyOptional({ example: '2026-11-30', description: 'created up to that day' }) @IsOptional() @Matches(DAY) dateEnd?: string;
}

/** POST /contacts/import: which connection's phone (its default one when absent). */
export class ImportPhoneContactsDto implements RequestDto<ImportPhoneContactsDto, ImportPhoneContactsRequest> {
  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(2_147_483_647) whatsappId?: number;
}
