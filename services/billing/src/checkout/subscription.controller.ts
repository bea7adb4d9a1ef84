import { Body, Controller, Post } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminOnly, CurrentUser } from '@wa/auth';
import type { AccessTokenClaims, SubscriptionCharge } from '@wa/contracts';
import { SubscriptionDto } from './checkout.dto.js';
import { CheckoutService } from './checkout.service.js';

/** spec 02 §7 `POST /subscription`: the Pix charge of one of the company's open invoices. */
@ApiTags('subscription')
@Controller('subscription')
export class SubscriptionController {
  constructor(private readonly checkout: CheckoutService) {}

  @AdminOnly()
  @Post()
  @ApiResponse({
    status: 201,
    description: 'the PIX charge of the invoice: { qrcode: { qrcode, imagemQrcode }, valor: { original }, txid, expiresAt, invoiceId }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_INVOICE_FOUND: not an invoice of the caller’s company' })
  @ApiResponse({ status: 409, description: 'ERR_INVOICE_NOT_OPEN' })
  @ApiResponse({ status: 502, description: 'ERR_PAYMENT_PROVIDER' })
  subscribe(@CurrentUser() user: AccessTokenClaims, @Body() body: SubscriptionDto): Promise<SubscriptionCharge> {
    return this.checkout.subscribe(user, body);
  }
}
