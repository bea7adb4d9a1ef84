import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiTags } from '@nestjs/swagger';
import { DiscardUploadsInterceptor, mediaUploadOptions, type UploadedDiskFile } from '@wa/server-kit';
import { AdminOnly, CurrentUser } from '@wa/auth';
import type { AccessTokenClaims, QueueDto } from '@wa/contracts';
import { CallerService } from '../../identity/caller.service.js';
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
  @Post(':id/media-upload')
  @HttpCode(200)
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } })
  @UseInterceptors(FileInterceptor('file', mediaUploadOptions(1)), DiscardUploadsInterceptor)
  async upload(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number, @UploadedFile() file: UploadedDiskFile | undefined): Promise<QueueDto> {
    return this.queues.attachMedia(await this.callers.of(claims), id, file);
  }

  @AdminOnly()
  @Delete(':id/media-upload')
  @HttpCode(200)
  async removeMedia(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<QueueDto> {
    return this.queues.detachMedia(await this.callers.of(claims), id);
  }

  @AdminOnly()
  @Delete(':id')
  @HttpCode(200)
  async remove(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.queues.remove(await this.callers.of(claims), id);
    return { message: 'Queue deleted' };
  }
}
