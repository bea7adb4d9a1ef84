import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { CreateQuickMessageRequest, QuickMessagesQuery, RequestDto, UpdateQuickMessageRequest } from '@wa/contracts';
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { FlagField, Omittable, PageNumberField } from '@wa/server-kit';

/** spec 02 §5: the shortcode is required ("Obrigatório"). */
export class CreateQuickMessageDto implements RequestDto<CreateQuickMessageDto, CreateQuickMessageRequest> {
  @ApiProperty({ maxLength: 100 })
  @IsString({ message: 'Obrigatório' })
  @IsNotEmpty({ message: 'Obrigatório' })
  @MaxLength(100)
  shortcode: string;

  @ApiPropertyOptional({ maxLength: 10_000 }) @IsOptional() @IsString() @MaxLength(10_000) message?: string;
  /** shared with the whole company */
  @ApiPropertyOptional() @FlagField() geral?: boolean;
  /** sent by the product's client; media is attached through /quick-messages/{id}/media-upload */
  @ApiPropertyOptional() @FlagField() isMedia?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(1000) mediaPath?: string | null;
}

export class UpdateQuickMessageDto implements RequestDto<UpdateQuickMessageDto, UpdateQuickMessageRequest> {
  @ApiPropertyOptional({ maxLength: 100 })
  @Omittable()
  @IsString({ message: 'Obrigatório' })
  @IsNotEmpty({ message: 'Obrigatório' })
  @MaxLength(100)
  shortcode?: string;

  @ApiPropertyOptional({ maxLength: 10_000 }) @IsOptional() @IsString() @MaxLength(10_000) message?: string;
  @ApiPropertyOptional() @FlagField() geral?: boolean;
  @ApiPropertyOptional() @FlagField() isMedia?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(1000) mediaPath?: string | null;
}

export class ListQuickMessagesQueryDto implements RequestDto<ListQuickMessagesQueryDto, QuickMessagesQuery> {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) searchParam?: string;
  @ApiPropertyOptional({ default: 1 }) @PageNumberField() pageNumber?: number;
  /** sent by the product's client; what a caller sees is decided by their token */
  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(2_147_483_647) userId?: number;
  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(2_147_483_647) companyId?: number;
}
