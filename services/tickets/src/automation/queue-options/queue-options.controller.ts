import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  ParseIntPipe,
  Post,
  Put,
  Query,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { DiscardUploadsInterceptor, mediaUploadOptions, type UploadedDiskFile } from '@wa/server-kit';
import { AdminOnly } from '@wa/auth';
import type { QueueOptionDto } from '@wa/contracts';
import type { Caller } from '../../identity/caller.service.js';
import { CurrentCaller } from '../../identity/current-caller.js';
import { CreateQueueOptionDto, ListQueueOptionsQuery, UpdateQueueOptionDto } from './queue-options.dto.js';
import { QueueOptionsService } from './queue-options.service.js';

/** spec 02 "Queue options": a queue's chatbot tree, managed by the company's admins. */
@ApiTags('queues')
@AdminOnly()
@Controller('queue-options')
export class QueueOptionsController {
  constructor(private readonly options: QueueOptionsService) {}

  @Get()
  @ApiResponse({
    status: 200,
    description:
      "one level of the queue's options, by option number: [{ id, queueId, parentId, title, message, option, children, mediaPath, mediaName, createdAt, updatedAt }]",
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiOperation({ summary: "One level of a queue's options: the first (no parentId) or those under parentId, by option number" })
  async list(@CurrentCaller() caller: Caller, @Query() query: ListQueueOptionsQuery): Promise<QueueOptionDto[]> {
    return this.options.list(caller, query);
  }

  @Post()
  @ApiResponse({
    status: 201,
    description:
      'the option created: { id, queueId, parentId, title, message, option, children, mediaPath, mediaName, createdAt, updatedAt }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({
    status: 400,
    description: 'ERR_VALIDATION: title, option (1 to 999, unique on its level), parentId not an option of this queue',
  })
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateQueueOptionDto): Promise<QueueOptionDto> {
    return this.options.create(caller, body);
  }

  @Put(':id')
  @ApiResponse({
    status: 200,
    description:
      'the option as it is now: { id, queueId, parentId, title, message, option, children, mediaPath, mediaName, createdAt, updatedAt }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such option' })
  async update(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseIntPipe) id: number,
    @Body() body: UpdateQueueOptionDto,
  ): Promise<QueueOptionDto> {
    return this.options.update(caller, id, body);
  }

  @Post(':id/media-upload')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description:
      'the option with its attachment: { id, queueId, parentId, title, message, option, children, mediaPath, mediaName, createdAt, updatedAt }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such option' })
  @ApiResponse({ status: 413, description: 'ERR_PAYLOAD_TOO_LARGE' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } })
  @UseInterceptors(FileInterceptor('file', mediaUploadOptions(1)), DiscardUploadsInterceptor)
  async upload(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseIntPipe) id: number,
    @UploadedFile() file: UploadedDiskFile | undefined,
  ): Promise<QueueOptionDto> {
    return this.options.attachMedia(caller, id, file);
  }

  @Delete(':id/media-upload')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description:
      'the option without its attachment: { id, queueId, parentId, title, message, option, children, mediaPath, mediaName, createdAt, updatedAt }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such option' })
  async removeMedia(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<QueueOptionDto> {
    return this.options.detachMedia(caller, id);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "{ message: 'Queue option deleted' }" })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such option' })
  @ApiOperation({ summary: 'Removes the option and every option under it' })
  async remove(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.options.remove(caller, id);
    return { message: 'Queue option deleted' };
  }
}
