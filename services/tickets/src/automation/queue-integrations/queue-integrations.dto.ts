import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type {
  CreateQueueIntegrationRequest,
  QueueIntegrationsQuery,
  RequestDto,
  TestDialogflowSessionRequest,
  UpdateQueueIntegrationRequest,
} from '@wa/contracts';
import { MAX_PAGE_NUMBER, NameField } from '@wa/server-kit';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { INTEGRATION_TYPES, type IntegrationType } from '../../database/entities/queue-integration.entity.js';

export const DIALOGFLOW_LANGUAGES = ['pt-BR', 'en', 'es'] as const;

class IntegrationFields {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) projectName?: string;
  @ApiPropertyOptional({ description: "Dialogflow's service-account JSON; stored encrypted, answered masked" })
  @IsOptional()
  @IsString()
  @MaxLength(20_000)
  jsonContent?: string;
  @ApiPropertyOptional({ enum: DIALOGFLOW_LANGUAGES }) @IsOptional() @IsString() @MaxLength(10) language?: string;
  @ApiPropertyOptional({ description: 'the flow’s URL (n8n, webhook, typebot)' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  urlN8N?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) typebotSlug?: string;
  @ApiPropertyOptional({ default: 1 }) @IsOptional() @IsInt() @Min(0) @Max(10_080) typebotExpires?: number;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) typebotKeywordFinish?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) typebotKeywordRestart?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(2000) typebotUnknownMessage?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(2000) typebotRestartMessage?: string;
  @ApiPropertyOptional({ default: 1000 }) @IsOptional() @IsInt() @Min(0) @Max(60_000) typebotDelayMessage?: number;
}

export class CreateQueueIntegrationDto
  extends IntegrationFields
  implements RequestDto<CreateQueueIntegrationDto, CreateQueueIntegrationRequest>
{
  @ApiProperty({ enum: INTEGRATION_TYPES }) @IsIn(INTEGRATION_TYPES, { message: 'Required' }) type: IntegrationType;
  @ApiProperty({ minLength: 2, maxLength: 50 }) @NameField() name: string;
}

export class UpdateQueueIntegrationDto
  extends IntegrationFields
  implements RequestDto<UpdateQueueIntegrationDto, UpdateQueueIntegrationRequest>
{
  @ApiPropertyOptional({ enum: INTEGRATION_TYPES }) @IsOptional() @IsIn(INTEGRATION_TYPES, { message: 'Required' }) type?: IntegrationType;
  @ApiPropertyOptional() @NameField({ optional: true }) name?: string;
}

export class ListQueueIntegrationsQuery implements RequestDto<ListQueueIntegrationsQuery, QueueIntegrationsQuery> {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) searchParam?: string;
  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(MAX_PAGE_NUMBER) pageNumber?: number;
}

export class TestSessionDto implements RequestDto<TestSessionDto, TestDialogflowSessionRequest> {
  @ApiProperty() @IsString({ message: 'Required' }) @MaxLength(100) projectName: string;
  @ApiProperty() @IsString({ message: 'Required' }) @MaxLength(20_000) jsonContent: string;
  @ApiProperty({ enum: DIALOGFLOW_LANGUAGES }) @IsIn(DIALOGFLOW_LANGUAGES, { message: 'Idioma inválido' }) language: string;
}
