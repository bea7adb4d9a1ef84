import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { MAX_PAGE_NUMBER, PageNumberField } from '@wa/server-kit';

export class SendMessageDto {
  @ApiProperty({ maxLength: 65536 })
  @IsString({ message: 'Required' })
  @IsNotEmpty({ message: 'Required' })
  @Matches(/\S/, { message: 'The message is empty' })
  @MaxLength(65536)
  body: string;

  @ApiPropertyOptional() @IsOptional() @IsBoolean() read?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() fromMe?: boolean;
  @ApiPropertyOptional() @IsOptional() @ValidateIf((_o, v) => v !== null) @IsString() mediaUrl?: string | null;

  /** the message answered: `{ id }` of one of this ticket's messages */
  @ApiPropertyOptional() @IsOptional() quotedMsg?: { id?: number } | null;
}

export class ListMessagesQueryDto {
  @ApiPropertyOptional({ default: 1, maximum: MAX_PAGE_NUMBER }) @PageNumberField() pageNumber?: number;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(500) cursor?: string;
}
