import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminOnly, CurrentUser } from '@wa/auth';
import type {
  AccessTokenClaims,
  WebhookDeliveriesPage,
  WebhookDeliveryDto,
  WebhookSecretDto,
  WebhookSettingsDto,
  WebhookSettingsSavedDto,
} from '@wa/contracts';
import { WebhookDeliveriesQuery, WebhookSettingsBody } from './webhooks.dto.js';
import { WebhooksService } from './webhooks.service.js';

/**
 * The company's outbound webhook (admins): where events go, signed with its secret, and the delivery log.
 * Events: WEBHOOK_EVENTS (@wa/contracts). The secret is made by the server and shown once (the first save, or
 * `POST /webhook-settings/secret`); a delivery of the log can be sent again (`POST /webhook-deliveries/{id}/replay`).
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
  @ApiResponse({
    status: 200,
    description:
      'the webhook as it is now: { url, events, enabled, hasSecret, updatedAt }, and `secret` (shown this once) when this save created it without one given',
  })
  @ApiResponse({
    status: 400,
    description: 'ERR_VALIDATION: url (https, not into a private network), events, secret (16 characters or more)',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  put(@CurrentUser() caller: AccessTokenClaims, @Body() body: WebhookSettingsBody): Promise<WebhookSettingsSavedDto> {
    return this.webhooks.put(caller.companyId, body);
  }

  @Post('webhook-settings/secret')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: '{ secret }: a new signing secret, shown this once; the old one signs nothing from now on' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: the company has no webhook' })
  newSecret(@CurrentUser() caller: AccessTokenClaims): Promise<WebhookSecretDto> {
    return this.webhooks.newSecret(caller.companyId);
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
      "a page of the webhook's deliveries, newest first (`status`: only pending, delivered or failed ones): { deliveries: [{ id, event, ticketId, status, attempts, lastStatus, lastError, createdAt, deliveredAt, nextAttemptAt, replayOf }], hasMore }",
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  deliveries(@CurrentUser() caller: AccessTokenClaims, @Query() query: WebhookDeliveriesQuery): Promise<WebhookDeliveriesPage> {
    return this.webhooks.deliveries(caller.companyId, query);
  }

  @Post('webhook-deliveries/:id/replay')
  @HttpCode(202)
  @ApiResponse({
    status: 202,
    description:
      'the new delivery (same event and payload, its own id, replayOf: the one replayed), signed with the current secret and sent like any other',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: "ERR_NOT_FOUND: no such delivery of the company's" })
  replay(@CurrentUser() caller: AccessTokenClaims, @Param('id') id: string): Promise<WebhookDeliveryDto> {
    return this.webhooks.replay(caller.companyId, id);
  }
}
