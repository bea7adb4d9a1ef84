import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, MaxLength, Min } from 'class-validator';
import type { SandboxInboundRequest } from '@wa/contracts';

/** A message the sandbox phone receives, as from a WhatsApp contact. */
export class SandboxInboundDto implements SandboxInboundRequest {
  @ApiProperty({ example: '5511999990001', description: 'the contact\'s number: 8 to 20 digits' })
  @IsString({ message: 'Required' })
  @Matches(/^\d{8,20}$/, { message: 'from must be the contact\'s number: 8 to 20 digits' })
  from: string;

  @ApiPropertyOptional({ example: 'Maria', description: 'the name the contact shows (push name)' })
  @IsOptional()
  @IsString()
  @MaxLength(100, { message: 'Too Long!' })
  name?: string;

  @ApiProperty({ example: 'Olá' })
  @IsString({ message: 'Required' })
  @Matches(/\S/, { message: 'Required' })
  @MaxLength(65_536, { message: 'Too Long!' })
  body: string;

  @ApiPropertyOptional({ description: 'WhatsApp message id; give the same one again to replay a message' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,128}$/, { message: 'id must be 1 to 128 letters, digits, _ or -' })
  id?: string;
}

export class OutboxQuery {
  @ApiPropertyOptional({ default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  pageNumber?: number;
}
