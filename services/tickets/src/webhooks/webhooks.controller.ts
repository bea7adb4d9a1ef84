import { Body, Controller, Delete, Get, HttpCode, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminOnly, CurrentUser } from '@wa/auth';
import type { AccessTokenClaims, WebhookDeliveriesPage, WebhookSettingsDto } from '@wa/contracts';
import { WebhookDeliveriesQuery, WebhookSettingsBody } from './webhooks.dto.js';
import { WebhooksService } from './webhooks.service.js';

/**
 * The company's outbound webhook (admins): where events go, signed with its secret, and the delivery log.
 * Events: message.received, message.sent, message.updated (ack, edit, deletion), ticket.status.
 */
@ApiTags('webhooks')
@AdminOnly()
@Controller()
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get('webhook-settings')
  get(@CurrentUser() caller: AccessTokenClaims): Promise<WebhookSettingsDto> {
    return this.webhooks.get(caller.companyId);
  }

  @Put('webhook-settings')
  put(@CurrentUser() caller: AccessTokenClaims, @Body() body: WebhookSettingsBody): Promise<WebhookSettingsDto> {
    return this.webhooks.put(caller.companyId, body);
  }

  @Delete('webhook-settings')
  @HttpCode(200)
  async remove(@CurrentUser() caller: AccessTokenClaims): Promise<{ message: string }> {
    await this.webhooks.remove(caller.companyId);
    return { message: 'Webhook removed' };
  }

  @Get('webhook-deliveries')
  deliveries(@CurrentUser() caller: AccessTokenClaims, @Query() query: WebhookDeliveriesQuery): Promise<WebhookDeliveriesPage> {
    return this.webhooks.deliveries(caller.companyId, query);
  }
}
