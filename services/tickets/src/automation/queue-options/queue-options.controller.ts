import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, Query, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { DiscardUploadsInterceptor, mediaUploadOptions, type UploadedDiskFile } from '@wa/server-kit';
import { AdminOnly, CurrentUser } from '@wa/auth';
import type { AccessTokenClaims, QueueOptionDto } from '@wa/contracts';
import { CallerService } from '../../identity/caller.service.js';
import { CreateQueueOptionDto, ListQueueOptionsQuery, UpdateQueueOptionDto } from './queue-options.dto.js';
import { QueueOptionsService } from './queue-options.service.js';

/** spec 02 "Queue options": a queue's chatbot tree, managed by the company's admins. */
@ApiTags('queues')
@AdminOnly()
@Controller('queue-options')
export class QueueOptionsController {
  constructor(
    private readonly options: QueueOptionsService,
    private readonly callers: CallerService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'One level of a queue\'s options: the first (no parentId) or those under parentId, by option number' })
  async list(@CurrentUser() claims: AccessTokenClaims, @Query() query: ListQueueOptionsQuery): Promise<QueueOptionDto[]> {
    return this.options.list(await this.callers.of(claims), query);
  }

  @Post()
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION: title, option (1 to 999, unique on its level), parentId not an option of this queue' })
  async create(@CurrentUser() claims: AccessTokenClaims, @Body() body: CreateQueueOptionDto): Promise<QueueOptionDto> {
    return this.options.create(await this.callers.of(claims), body);
  }

  @Put(':id')
  async update(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number, @Body() body: UpdateQueueOptionDto): Promise<QueueOptionDto> {
    return this.options.update(await this.callers.of(claims), id, body);
  }

  @Post(':id/media-upload')
  @HttpCode(200)
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } })
  @UseInterceptors(FileInterceptor('file', mediaUploadOptions(1)), DiscardUploadsInterceptor)
  async upload(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number, @UploadedFile() file: UploadedDiskFile | undefined): Promise<QueueOptionDto> {
    return this.options.attachMedia(await this.callers.of(claims), id, file);
  }

  @Delete(':id/media-upload')
  @HttpCode(200)
  async removeMedia(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<QueueOptionDto> {
    return this.options.detachMedia(await this.callers.of(claims), id);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOperation({ summary: 'Removes the option and every option under it' })
  async remove(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.options.remove(await this.callers.of(claims), id);
    return { message: 'Queue option deleted' };
  }
}
