import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, Query } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminOnly, CurrentUser } from '@wa/auth';
import type { AccessTokenClaims, QueueIntegrationDto, QueueIntegrationsPage } from '@wa/contracts';
import { CallerService } from '../../identity/caller.service.js';
import { CreateQueueIntegrationDto, ListQueueIntegrationsQuery, TestSessionDto, UpdateQueueIntegrationDto } from './queue-integrations.dto.js';
import { QueueIntegrationsService } from './queue-integrations.service.js';

/** spec 02 "Queue integrations" (/queue-integration page): the company's outside flows, managed by its admins. */
@ApiTags('queue integrations')
@AdminOnly()
@Controller('queueIntegration')
export class QueueIntegrationsController {
  constructor(
    private readonly integrations: QueueIntegrationsService,
    private readonly callers: CallerService,
  ) {}

  @Get()
  async list(@CurrentUser() claims: AccessTokenClaims, @Query() query: ListQueueIntegrationsQuery): Promise<QueueIntegrationsPage> {
    return this.integrations.list(await this.callers.of(claims), query);
  }

  @Post('testSession')
  @HttpCode(200)
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION: the credentials are not a service account JSON, or the language is not pt-BR, en or es' })
  testSession(@Body() body: TestSessionDto): { ok: true; projectName: string; clientEmail: string; language: string } {
    return this.integrations.testSession(body);
  }

  @Get(':id')
  async get(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<QueueIntegrationDto> {
    return this.integrations.get(await this.callers.of(claims), id);
  }

  @Post()
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION: name 2–50, type, each type’s required fields, a URL into a private network' })
  async create(@CurrentUser() claims: AccessTokenClaims, @Body() body: CreateQueueIntegrationDto): Promise<QueueIntegrationDto> {
    return this.integrations.create(await this.callers.of(claims), body);
  }

  @Put(':id')
  async update(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number, @Body() body: UpdateQueueIntegrationDto): Promise<QueueIntegrationDto> {
    return this.integrations.update(await this.callers.of(claims), id, body);
  }

  @Delete(':id')
  @HttpCode(200)
  async remove(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.integrations.remove(await this.callers.of(claims), id);
    return { message: 'Integration deleted' };
  }
}
