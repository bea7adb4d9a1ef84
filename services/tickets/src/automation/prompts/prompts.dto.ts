import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { CreatePromptRequest, PromptsQuery, RequestDto, UpdatePromptRequest } from '@wa/contracts';
import { MAX_PAGE_NUMBER, Omittable, TextField } from '@wa/server-kit';
import { Type } from 'class-transformer';
import { IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** spec 02 §5 "Prompt": name 5–100, prompt at least 50, a queue ('Informe o setor'), limits with the product's defaults. */
export class CreatePromptDto implements RequestDto<CreatePromptDto, CreatePromptRequest> {
  @ApiProperty({ minLength: 5, maxLength: 100 }) @TextField(5, 100) name: string;
  @ApiProperty({ minLength: 50, description: 'the instructions the model follows' }) @TextField(50, 20_000) prompt: string;
  @ApiProperty({ description: 'the queue it answers' }) @IsInt({ message: 'Informe o setor' }) queueId: number;
  @ApiPropertyOptional({ default: 'texto' }) @IsOptional() @IsString() @MaxLength(60) voice?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(500) voiceKey?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(60) voiceRegion?: string;
  @ApiPropertyOptional({ default: 100 }) @IsOptional() @IsInt() @Min(1) @Max(4096) maxTokens?: number;
  @ApiPropertyOptional({ default: 1 }) @IsOptional() @IsNumber() @Min(0) @Max(2) temperature?: number;
  @ApiPropertyOptional({ description: 'the model API key; stored encrypted, answered masked' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  apiKey?: string;
  @ApiPropertyOptional({ default: 10 }) @IsOptional() @IsInt() @Min(1) @Max(50) maxMessages?: number;
}

export class UpdatePromptDto implements RequestDto<UpdatePromptDto, UpdatePromptRequest> {
  @ApiPropertyOptional() @TextField(5, 100, { optional: true }) name?: string;
  @ApiPropertyOptional() @TextField(50, 20_000, { optional: true }) prompt?: string;
  @ApiPropertyOptional() @Omittable() @IsInt({ message: 'Informe o setor' }) queueId?: number;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(60) voice?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(500) voiceKey?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(60) voiceRegion?: string;
  @ApiPropertyOptional() @IsOptional() @IsInt() @Min(1) @Max(4096) maxTokens?: number;
  @ApiPropertyOptional() @IsOptional() @IsNumber() @Min(0) @Max(2) temperature?: number;
  @ApiPropertyOptional({ description: 'a new key (the masked value the form shows back leaves the stored one)' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  apiKey?: string;
  @ApiPropertyOptional() @IsOptional() @IsInt() @Min(1) @Max(50) maxMessages?: number;
}

export class ListPromptsQuery implements RequestDto<ListPromptsQuery, PromptsQuery> {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) searchParam?: string;
  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(MAX_PAGE_NUMBER) pageNumber?: number;
}
