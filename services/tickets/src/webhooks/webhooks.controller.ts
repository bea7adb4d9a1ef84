import { Body, Controller, Delete, Get, HttpCode, Put, Query } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
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
  @ApiResponse({ status: 200, description: "the company's webhook: { url, events, enabled, hasSecret, updatedAt }" })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  get(@CurrentUser() caller: AccessTokenClaims): Promise<WebhookSettingsDto> {
    return this.webhooks.get(caller.companyId);
  }

  @Put('webhook-settings')
  @ApiResponse({ status: 200, description: 'the webhook as it is now: { url, events, enabled, hasSecret, updatedAt }' })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION: url (https, not into a private network), events' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  put(@CurrentUser() caller: AccessTokenClaims, @Body() body: WebhookSettingsBody): Promise<WebhookSettingsDto> {
    return this.webhooks.put(caller.companyId, body);
  }

  @Delete('webhook-settings')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "{ message: 'Webhook removed' }" })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  async remove(@CurrentUser() caller: AccessTokenClaims): Promise<{ message: string }> {
    await this.webhooks.remove(caller.companyId);
    return { message: 'Webhook removed' };
  }

  @Get('webhook-deliveries')
  @ApiResponse({
    status: 200,
    description:
      "a page of the webhook's deliveries, newest first: { deliveries: [{ id, event, ticketId, status, attempts, … }], hasMore }",
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  deliveries(@CurrentUser() caller: AccessTokenClaims, @Query() query: WebhookDeliveriesQuery): Promise<WebhookDeliveriesPage> {
    return this.webhooks.deliveries(caller.companyId, query);
  }
}
