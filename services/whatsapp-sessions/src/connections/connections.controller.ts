import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminOnly, CurrentUser, seesConnectionSecrets, withoutConnectionSecrets } from '@wa/auth';
import type { AccessTokenClaims, WhatsappDto } from '@wa/contracts';
import { CreateConnectionDto, UpdateConnectionDto } from './connections.dto.js';
import { ConnectionsService } from './connections.service.js';

/** `/whatsapp`: the company's connections (spec 01 §7). Reading for everyone of the company, writing for admins. */
@ApiTags('whatsapp')
@Controller('whatsapp')
export class ConnectionsController {
  constructor(private readonly connections: ConnectionsService) {}

  /** Also called as `/whatsapp/?session=0`; the company comes from the token, never from the query. */
  /** Agents get every connection without its token and QR code (admins only: see seesConnectionSecrets). */
  @Get()
  @ApiResponse({
    status: 200,
    description:
      "the company's connections: [{ id, name, status, qrcode, retries, isDefault, token, greetingMessage, complationMessage, outOfHoursMessage, ratingMessage, provider, channel, number, queues, … }]; agents get them without token and qrcode",
  })
  async list(@CurrentUser() caller: AccessTokenClaims): Promise<WhatsappDto[]> {
    const all = await this.connections.list();
    return seesConnectionSecrets(caller) ? all : all.map(withoutConnectionSecrets);
  }

  @Get(':id')
  @ApiResponse({
    status: 200,
    description:
      'the connection: { id, name, status, qrcode, retries, isDefault, token, greetingMessage, complationMessage, outOfHoursMessage, ratingMessage, provider, channel, number, queues, … }; agents get it without token and qrcode',
  })
  @ApiResponse({ status: 404, description: 'ERR_NO_WAPP_FOUND' })
  async get(@CurrentUser() caller: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<WhatsappDto> {
    const connection = await this.connections.get(id);
    return seesConnectionSecrets(caller) ? connection : withoutConnectionSecrets(connection);
  }

  @AdminOnly()
  @Post()
  @ApiResponse({
    status: 201,
    description:
      'the connection created (its session starts): { id, name, status, qrcode, retries, isDefault, token, greetingMessage, complationMessage, outOfHoursMessage, ratingMessage, provider, channel, number, queues, … }',
  })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION, ERR_WAPP_GREETING_REQUIRED: more than one queue needs a greeting' })
  @ApiResponse({ status: 403, description: "ERR_NO_PERMISSION: admins only; ERR_PLAN_LIMIT_REACHED: the plan's count of connections" })
  create(@Body() body: CreateConnectionDto): Promise<WhatsappDto> {
    return this.connections.create(body);
  }

  @AdminOnly()
  @Put(':id')
  @ApiResponse({
    status: 200,
    description:
      'the connection as it is now: { id, name, status, qrcode, retries, isDefault, token, greetingMessage, complationMessage, outOfHoursMessage, ratingMessage, provider, channel, number, queues, … }',
  })
  @ApiResponse({
    status: 400,
    description: 'ERR_VALIDATION, ERR_WAPP_GREETING_REQUIRED, ERR_NO_OTHER_WHATSAPP: the last default cannot stop being one',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_WAPP_FOUND' })
  update(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateConnectionDto): Promise<WhatsappDto> {
    return this.connections.update(id, body);
  }

  /** A new API token drawn by the server (32 random bytes); the old one stops working at once. */
  @AdminOnly()
  @Post(':id/token')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description:
      'the connection with its new token: { id, name, status, qrcode, retries, isDefault, token, greetingMessage, complationMessage, outOfHoursMessage, ratingMessage, provider, channel, number, queues, … }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_WAPP_FOUND' })
  regenerateToken(@Param('id', ParseIntPipe) id: number): Promise<WhatsappDto> {
    return this.connections.regenerateToken(id);
  }

  @AdminOnly()
  @Delete(':id')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description: "{ message: 'Whatsapp deleted.' } (its session is closed; the oldest other connection becomes the default)",
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_WAPP_FOUND' })
  async remove(@Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.connections.remove(id);
    return { message: 'Whatsapp deleted.' };
  }
}
