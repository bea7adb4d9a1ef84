import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminOnly, CurrentUser } from '@wa/auth';
import type { AccessTokenClaims, QueueDto } from '@wa/contracts';
import { CallerService } from '../identity/caller.service.js';
import { CreateQueueDto, UpdateQueueDto } from './queues.dto.js';
import { QueuesService } from './queues.service.js';

@ApiTags('queues')
@Controller('queue')
export class QueuesController {
  constructor(
    private readonly queues: QueuesService,
    private readonly callers: CallerService,
  ) {}

  @Get()
  async list(@CurrentUser() claims: AccessTokenClaims): Promise<QueueDto[]> {
    return this.queues.list(await this.callers.of(claims));
  }

  @Get(':id')
  async get(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<QueueDto> {
    return this.queues.get(await this.callers.of(claims), id);
  }

  @AdminOnly()
  @Post()
  async create(@CurrentUser() claims: AccessTokenClaims, @Body() body: CreateQueueDto): Promise<QueueDto> {
    return this.queues.create(await this.callers.of(claims), body);
  }

  @AdminOnly()
  @Put(':id')
  async update(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number, @Body() body: UpdateQueueDto): Promise<QueueDto> {
    return this.queues.update(await this.callers.of(claims), id, body);
  }

  @AdminOnly()
  @Delete(':id')
  @HttpCode(200)
  async remove(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.queues.remove(await this.callers.of(claims), id);
    return { message: 'Queue deleted' };
  }
}
