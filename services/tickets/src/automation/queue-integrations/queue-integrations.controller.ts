import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, Query } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '@wa/auth';
import type { QueueIntegrationDto, QueueIntegrationsPage } from '@wa/contracts';
import type { Caller } from '../../identity/caller.service.js';
import { CurrentCaller } from '../../identity/current-caller.js';
import {
  CreateQueueIntegrationDto,
  ListQueueIntegrationsQuery,
  TestSessionDto,
  UpdateQueueIntegrationDto,
} from './queue-integrations.dto.js';
import { QueueIntegrationsService } from './queue-integrations.service.js';

/** spec 02 "Queue integrations" (/queue-integration page): the company's outside flows, managed by its admins. */
@ApiTags('queue integrations')
@AdminOnly()
@Controller('queueIntegration')
export class QueueIntegrationsController {
  constructor(private readonly integrations: QueueIntegrationsService) {}

  @Get()
  @ApiResponse({
    status: 200,
    description:
      'a page of queue integrations: { queueIntegrations: [{ id, type, name, projectName, jsonContent, language, urlN8N, typebotSlug, typebotExpires, typebotKeywordFinish, … }], count, hasMore }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  async list(@CurrentCaller() caller: Caller, @Query() query: ListQueueIntegrationsQuery): Promise<QueueIntegrationsPage> {
    return this.integrations.list(caller, query);
  }

  @Post('testSession')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: 'the credentials read: { ok: true, projectName, clientEmail, language }' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({
    status: 400,
    description: 'ERR_VALIDATION: the credentials are not a service account JSON, or the language is not pt-BR, en or es',
  })
  testSession(@Body() body: TestSessionDto): { ok: true; projectName: string; clientEmail: string; language: string } {
    return this.integrations.testSession(body);
  }

  @Get(':id')
  @ApiResponse({
    status: 200,
    description:
      'the integration: { id, type, name, projectName, jsonContent, language, urlN8N, typebotSlug, typebotExpires, typebotKeywordFinish, … }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_INTEGRATION_FOUND' })
  async get(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<QueueIntegrationDto> {
    return this.integrations.get(caller, id);
  }

  @Post()
  @ApiResponse({
    status: 201,
    description:
      'the integration created: { id, type, name, projectName, jsonContent, language, urlN8N, typebotSlug, typebotExpires, typebotKeywordFinish, … }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION: name 2–50, type, each type’s required fields, a URL into a private network' })
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateQueueIntegrationDto): Promise<QueueIntegrationDto> {
    return this.integrations.create(caller, body);
  }

  @Put(':id')
  @ApiResponse({
    status: 200,
    description:
      'the integration as it is now: { id, type, name, projectName, jsonContent, language, urlN8N, typebotSlug, typebotExpires, typebotKeywordFinish, … }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_INTEGRATION_FOUND' })
  async update(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseIntPipe) id: number,
    @Body() body: UpdateQueueIntegrationDto,
  ): Promise<QueueIntegrationDto> {
    return this.integrations.update(caller, id, body);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "{ message: 'Integration deleted' }" })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_INTEGRATION_FOUND' })
  async remove(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.integrations.remove(caller, id);
    return { message: 'Integration deleted' };
  }
}
