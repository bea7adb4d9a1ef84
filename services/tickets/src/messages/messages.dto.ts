import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, Min, ValidateIf } from 'class-validator';

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
  @ApiPropertyOptional({ default: 1 }) @IsOptional() @Type(() => Number) @IsInt() @Min(1) pageNumber?: number;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(500) cursor?: string;
}
