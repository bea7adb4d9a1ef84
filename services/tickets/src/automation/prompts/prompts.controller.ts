import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, Query } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '@wa/auth';
import type { PromptDto, PromptsPage } from '@wa/contracts';
import type { Caller } from '../../identity/caller.service.js';
import { CurrentCaller } from '../../identity/current-caller.js';
import { CreatePromptDto, ListPromptsQuery, UpdatePromptDto } from './prompts.dto.js';
import { PromptsService } from './prompts.service.js';

/** spec 02 "Prompts" (/prompts page): the company's AI agents, managed by its admins. */
@ApiTags('prompts')
@AdminOnly()
@Controller('prompt')
export class PromptsController {
  constructor(private readonly prompts: PromptsService) {}

  @Get()
  @ApiResponse({
    status: 200,
    description:
      'a page of AI prompts: { prompts: [{ id, name, prompt, voice, voiceKey, voiceRegion, maxTokens, temperature, apiKey, queueId, queue, maxMessages, createdAt }], count, hasMore }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  async list(@CurrentCaller() caller: Caller, @Query() query: ListPromptsQuery): Promise<PromptsPage> {
    return this.prompts.list(caller, query);
  }

  @Get(':id')
  @ApiResponse({
    status: 200,
    description:
      'the prompt: { id, name, prompt, voice, voiceKey, voiceRegion, maxTokens, temperature, apiKey, queueId, queue, maxMessages, createdAt }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_PROMPT_FOUND' })
  async get(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<PromptDto> {
    return this.prompts.get(caller, id);
  }

  @Post()
  @ApiResponse({
    status: 201,
    description:
      'the prompt created: { id, name, prompt, voice, voiceKey, voiceRegion, maxTokens, temperature, apiKey, queueId, queue, maxMessages, createdAt }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 400, description: "ERR_VALIDATION: name 5–100, prompt at least 50, queueId ('Informe o setor'), limits" })
  async create(@CurrentCaller() caller: Caller, @Body() body: CreatePromptDto): Promise<PromptDto> {
    return this.prompts.create(caller, body);
  }

  @Put(':id')
  @ApiResponse({
    status: 200,
    description:
      'the prompt as it is now: { id, name, prompt, voice, voiceKey, voiceRegion, maxTokens, temperature, apiKey, queueId, queue, maxMessages, createdAt }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_PROMPT_FOUND' })
  async update(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number, @Body() body: UpdatePromptDto): Promise<PromptDto> {
    return this.prompts.update(caller, id, body);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "{ message: 'Prompt deleted' }" })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_PROMPT_FOUND' })
  async remove(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.prompts.remove(caller, id);
    return { message: 'Prompt deleted' };
  }
}
