import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
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
  async list(@CurrentUser() caller: AccessTokenClaims): Promise<WhatsappDto[]> {
    const all = await this.connections.list();
    return seesConnectionSecrets(caller) ? all : all.map(withoutConnectionSecrets);
  }

  @Get(':id')
  async get(@CurrentUser() caller: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<WhatsappDto> {
    const connection = await this.connections.get(id);
    return seesConnectionSecrets(caller) ? connection : withoutConnectionSecrets(connection);
  }

  @AdminOnly()
  @Post()
  create(@Body() body: CreateConnectionDto): Promise<WhatsappDto> {
    return this.connections.create(body);
  }

  @AdminOnly()
  @Put(':id')
  update(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateConnectionDto): Promise<WhatsappDto> {
    return this.connections.update(id, body);
  }

  /** A new API token drawn by the server (32 random bytes); the old one stops working at once. */
  @AdminOnly()
  @Post(':id/token')
  @HttpCode(200)
  regenerateToken(@Param('id', ParseIntPipe) id: number): Promise<WhatsappDto> {
    return this.connections.regenerateToken(id);
  }

  @AdminOnly()
  @Delete(':id')
  @HttpCode(200)
  async remove(@Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.connections.remove(id);
    return { message: 'Whatsapp deleted.' };
  }
}
