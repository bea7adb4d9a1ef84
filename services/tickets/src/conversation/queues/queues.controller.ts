import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiTags } from '@nestjs/swagger';
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
  async list(@CurrentCaller() caller: Caller): Promise<QueueDto[]> {
    return this.queues.list(caller);
  }

  @Get(':id')
  async get(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<QueueDto> {
    return this.queues.get(caller, id);
  }

  @AdminOnly()
  @Post()
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateQueueDto): Promise<QueueDto> {
    return this.queues.create(caller, body);
  }

  @AdminOnly()
  @Put(':id')
  async update(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number, @Body() body: UpdateQueueDto): Promise<QueueDto> {
    return this.queues.update(caller, id, body);
  }

  @AdminOnly()
  @Post(':id/media-upload')
  @HttpCode(200)
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
  async removeMedia(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<QueueDto> {
    return this.queues.detachMedia(caller, id);
  }

  @AdminOnly()
  @Delete(':id')
  @HttpCode(200)
  async remove(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.queues.remove(caller, id);
    return { message: 'Queue deleted' };
  }
}
