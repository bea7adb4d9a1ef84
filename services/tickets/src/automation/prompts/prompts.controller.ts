import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, Query } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminOnly, CurrentUser } from '@wa/auth';
import type { AccessTokenClaims, PromptDto, PromptsPage } from '@wa/contracts';
import { CallerService } from '../../identity/caller.service.js';
import { CreatePromptDto, ListPromptsQuery, UpdatePromptDto } from './prompts.dto.js';
import { PromptsService } from './prompts.service.js';

/** spec 02 "Prompts" (/prompts page): the company's AI agents, managed by its admins. */
@ApiTags('prompts')
@AdminOnly()
@Controller('prompt')
export class PromptsController {
  constructor(
    private readonly prompts: PromptsService,
    private readonly callers: CallerService,
  ) {}

  @Get()
  async list(@CurrentUser() claims: AccessTokenClaims, @Query() query: ListPromptsQuery): Promise<PromptsPage> {
    return this.prompts.list(await this.callers.of(claims), query);
  }

  @Get(':id')
  async get(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<PromptDto> {
    return this.prompts.get(await this.callers.of(claims), id);
  }

  @Post()
  @ApiResponse({ status: 400, description: "ERR_VALIDATION: name 5–100, prompt at least 50, queueId ('Informe o setor'), limits" })
  async create(@CurrentUser() claims: AccessTokenClaims, @Body() body: CreatePromptDto): Promise<PromptDto> {
    return this.prompts.create(await this.callers.of(claims), body);
  }

  @Put(':id')
  async update(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number, @Body() body: UpdatePromptDto): Promise<PromptDto> {
    return this.prompts.update(await this.callers.of(claims), id, body);
  }

  @Delete(':id')
  @HttpCode(200)
  async remove(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.prompts.remove(await this.callers.of(claims), id);
    return { message: 'Prompt deleted' };
  }
}
