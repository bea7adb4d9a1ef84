import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { FlagField, MAX_PAGE_NUMBER, PageNumberField } from '@wa/server-kit';

export class SendMessageDto {
  @ApiProperty({ maxLength: 65536 })
  @IsString({ message: 'Required' })
  @IsNotEmpty({ message: 'Required' })
  @Matches(/\S/, { message: 'The message is empty' })
  @MaxLength(65536)
  body: string;

  @ApiPropertyOptional({ description: 'true/false, or 1/0 as the original web client sends it' }) @FlagField() read?: boolean;
  @ApiPropertyOptional({ description: 'true/false, or 1/0' }) @FlagField() fromMe?: boolean;
  @ApiPropertyOptional() @IsOptional() @ValidateIf((_o, v) => v !== null) @IsString() mediaUrl?: string | null;

  /** the message answered: `{ id }` of one of this ticket's messages */
  @ApiPropertyOptional() @IsOptional() quotedMsg?: { id?: number } | null;
}

export class ListMessagesQueryDto {
  @ApiPropertyOptional({ default: 1, maximum: MAX_PAGE_NUMBER }) @PageNumberField() pageNumber?: number;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(500) cursor?: string;
}
