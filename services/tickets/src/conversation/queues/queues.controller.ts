import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiResponse, ApiTags } from '@nestjs/swagger';
import { DiscardUploadsInterceptor, mediaUploadOptions, type UploadedDiskFile } from '@wa/server-kit';
import { AdminOnly } from '@wa/auth';
import type { QueueDto } from '@wa/contracts';
import type { Caller } from '../../identity/caller.service.js';
import { CurrentCaller } from '../../identity/current-caller.js';
import { CreateQueueDto, UpdateQueueDto } from './queues.dto.js';
import { QueuesService } from './queues.service.js';

@ApiTags('queues')
@Controller('queue')
export class QueuesController {
  constructor(private readonly queues: QueuesService) {}

  @Get()
  @ApiResponse({
    status: 200,
    description:
      "the company's queues: [{ id, name, color, greetingMessage, outOfHoursMessage, orderQueue, mediaPath, mediaName, schedules, … }]",
  })
  async list(@CurrentCaller() caller: Caller): Promise<QueueDto[]> {
    return this.queues.list(caller);
  }

  @Get(':id')
  @ApiResponse({
    status: 200,
    description: 'the queue: { id, name, color, greetingMessage, outOfHoursMessage, orderQueue, mediaPath, mediaName, schedules, … }',
  })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such queue' })
  async get(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<QueueDto> {
    return this.queues.get(caller, id);
  }

  @AdminOnly()
  @Post()
  @ApiResponse({
    status: 201,
    description:
      'the queue created: { id, name, color, greetingMessage, outOfHoursMessage, orderQueue, mediaPath, mediaName, schedules, … }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only; ERR_PLAN_LIMIT_REACHED' })
  @ApiResponse({ status: 409, description: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' })
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateQueueDto): Promise<QueueDto> {
    return this.queues.create(caller, body);
  }

  @AdminOnly()
  @Put(':id')
  @ApiResponse({
    status: 200,
    description:
      'the queue as it is now: { id, name, color, greetingMessage, outOfHoursMessage, orderQueue, mediaPath, mediaName, schedules, … }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such queue' })
  @ApiResponse({ status: 409, description: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' })
  async update(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number, @Body() body: UpdateQueueDto): Promise<QueueDto> {
    return this.queues.update(caller, id, body);
  }

  @AdminOnly()
  @Post(':id/media-upload')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description:
      "the queue with its greeting's attachment: { id, name, color, greetingMessage, outOfHoursMessage, orderQueue, mediaPath, mediaName, schedules, … }",
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such queue' })
  @ApiResponse({ status: 413, description: 'ERR_PAYLOAD_TOO_LARGE' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } })
  @UseInterceptors(FileInterceptor('file', mediaUploadOptions(1)), DiscardUploadsInterceptor)
  async upload(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseIntPipe) id: number,
    @UploadedFile() file: UploadedDiskFile | undefined,
  ): Promise<QueueDto> {
    return this.queues.attachMedia(caller, id, file);
  }

  @AdminOnly()
  @Delete(':id/media-upload')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description:
      'the queue without the attachment: { id, name, color, greetingMessage, outOfHoursMessage, orderQueue, mediaPath, mediaName, schedules, … }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such queue' })
  async removeMedia(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<QueueDto> {
    return this.queues.detachMedia(caller, id);
  }

  @AdminOnly()
  @Delete(':id')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "{ message: 'Queue deleted' }" })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such queue' })
  async remove(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.queues.remove(caller, id);
    return { message: 'Queue deleted' };
  }
}
