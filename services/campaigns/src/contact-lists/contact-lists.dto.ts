import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEmail, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { NameField, PageNumberField, TextField } from '@wa/server-kit';

const MAX_ID = 2_147_483_647;

/** An email when one is given ('' and null: none), valid (spec 02 §5 "Invalid email"). */
const EmailField = () =>
  applyDecorators(
    IsOptional(),
    ValidateIf((_o, v) => v !== '' && v !== null),
    IsEmail({}, { message: 'Invalid email' }),
    MaxLength(255, { message: 'Too Long!' }),
  );

/** spec 02 §5: a contact list's name is required, 2 to 50. */
export class ContactListBodyDto {
  @ApiProperty({ minLength: 2, maxLength: 50 }) @NameField() name: string;
}

export class ListContactListsQueryDto {
  @ApiPropertyOptional({ description: 'part of the name' }) @IsOptional() @IsString() @MaxLength(100) searchParam?: string;
  @ApiPropertyOptional({ default: 1 }) @PageNumberField() pageNumber?: number;
  /** sent by the product's client; the company is the caller's */
  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(MAX_ID) companyId?: number;
}

/** spec 02 §5: name required 2 to 50; number 8 to 50; a valid email when given. */
export class CreateContactListItemDto {
  @ApiProperty({ minLength: 2, maxLength: 50 }) @NameField() name: string;
  @ApiProperty({ minLength: 8, maxLength: 50, example: '5511987654321' }) @TextField(8, 50) number: string;
  @ApiPropertyOptional() @EmailField() email?: string | null;
  @ApiProperty() @Type(() => Number) @IsInt({ message: 'Required' }) @Min(1) @Max(MAX_ID) contactListId: number;
}

export class UpdateContactListItemDto {
  @ApiPropertyOptional({ minLength: 2, maxLength: 50 }) @NameField({ optional: true }) name?: string;
  @ApiPropertyOptional({ minLength: 8, maxLength: 50 }) @TextField(8, 50, { optional: true }) number?: string;
  @ApiPropertyOptional() @EmailField() email?: string | null;
  /** sent by the product's client; an item stays in its list */
  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(MAX_ID) contactListId?: number;
  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(MAX_ID) companyId?: number;
}

export class ListContactListItemsQueryDto {
  @ApiProperty() @Type(() => Number) @IsInt({ message: 'Required' }) @Min(1) @Max(MAX_ID) contactListId: number;
  @ApiPropertyOptional({ description: 'part of the name, number or email' }) @IsOptional() @IsString() @MaxLength(100) searchParam?: string;
  @ApiPropertyOptional({ default: 1 }) @PageNumberField() pageNumber?: number;
  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(MAX_ID) companyId?: number;
}
