import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  WEBHOOK_EVENTS,
  type RequestDto,
  type WebhookDeliveriesQuery as WebhookDeliveriesRequest,
  type WebhookEvent,
  type WebhookSettingsRequest,
} from '@wa/contracts';
import { PageNumberField } from '@wa/server-kit';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, IsUrl, MaxLength, MinLength } from 'class-validator';

export class WebhookSettingsBody implements RequestDto<WebhookSettingsBody, WebhookSettingsRequest> {
  @ApiProperty({ example: 'https://loja.example.com/conversa/webhook' })
  @IsString({ message: 'Obrigatório' })
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: 'URL inválida' })
  @MaxLength(2000)
  url!: string;

  /**
   * signs each delivery (HMAC-SHA256); at least 16 characters. Left out: the webhook keeps its secret, or, saved
   * for the first time, gets one made by the server (answered once, as `secret`).
   */
  @ApiPropertyOptional({
    minLength: 16,
    description:
      'left out: kept; on the first save the server makes one and answers it once (POST /webhook-settings/secret makes a new one)',
  })
  @IsOptional()
  @IsString({ message: 'Obrigatório' })
  @MinLength(16, { message: 'O segredo precisa ter no mínimo 16 caracteres' })
  @MaxLength(200)
  secret?: string;

  @ApiProperty({ enum: WEBHOOK_EVENTS, isArray: true })
  @IsArray()
  @ArrayMinSize(1, { message: 'Escolha pelo menos um evento' })
  @ArrayMaxSize(WEBHOOK_EVENTS.length)
  @IsIn(WEBHOOK_EVENTS, { each: true })
  events!: WebhookEvent[];

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

export class WebhookDeliveriesQuery implements RequestDto<WebhookDeliveriesQuery, WebhookDeliveriesRequest> {
  @ApiPropertyOptional({ default: 1 }) @PageNumberField() pageNumber?: number;
  @ApiPropertyOptional({ enum: ['pending', 'delivered', 'failed'] }) @IsOptional() @IsIn(['pending', 'delivered', 'failed']) status?:
    'pending' | 'delivered' | 'failed';
}
