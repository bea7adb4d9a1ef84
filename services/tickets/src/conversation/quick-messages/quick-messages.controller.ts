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
import { DiscardUploadsInterceptor, mediaUploadOptions, type UploadedDiskFile } from '@wa/server-kit';
import { ApiBody, ApiConsumes, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { QuickMessageDto, QuickMessagesPage } from '@wa/contracts';
import type { Caller } from '../../identity/caller.service.js';
import { CurrentCaller } from '../../identity/current-caller.js';
import { CreateQuickMessageDto, ListQuickMessagesQueryDto, UpdateQuickMessageDto } from './quick-messages.dto.js';
import { QuickMessagesService } from './quick-messages.service.js';

@ApiTags('quick-messages')
@Controller('quick-messages')
export class QuickMessagesController {
  constructor(private readonly quick: QuickMessagesService) {}

  @Get()
  @ApiResponse({ status: 200, description: 'a page of quick replies: { records: [quick reply…], hasMore }' })
  async page(@CurrentCaller() caller: Caller, @Query() query: ListQuickMessagesQueryDto): Promise<QuickMessagesPage> {
    return this.quick.page(caller, query);
  }

  @Get('list')
  @ApiResponse({
    status: 200,
    description: 'the quick replies the user may use: [{ id, shortcode, message, geral, isMedia, mediaPath, mediaName, userId, … }]',
  })
  async list(@CurrentCaller() caller: Caller, @Query() _query: ListQuickMessagesQueryDto): Promise<QuickMessageDto[]> {
    return this.quick.list(caller);
  }

  @Get(':id')
  @ApiResponse({ status: 200, description: 'the quick reply: { id, shortcode, message, geral, isMedia, mediaPath, mediaName, userId, … }' })
  @ApiResponse({ status: 404, description: 'ERR_NO_QUICK_MESSAGE_FOUND' })
  async get(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<QuickMessageDto> {
    return this.quick.get(caller, id);
  }

  @Post()
  @ApiResponse({
    status: 201,
    description: 'the quick reply created: { id, shortcode, message, geral, isMedia, mediaPath, mediaName, userId, … }',
  })
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateQuickMessageDto): Promise<QuickMessageDto> {
    return this.quick.create(caller, body);
  }

  @Put(':id')
  @ApiResponse({
    status: 200,
    description: 'the quick reply as it is now: { id, shortcode, message, geral, isMedia, mediaPath, mediaName, userId, … }',
  })
  @ApiResponse({ status: 403, description: "ERR_NO_PERMISSION: another user's reply" })
  @ApiResponse({ status: 404, description: 'ERR_NO_QUICK_MESSAGE_FOUND' })
  async update(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseIntPipe) id: number,
    @Body() body: UpdateQuickMessageDto,
  ): Promise<QuickMessageDto> {
    return this.quick.update(caller, id, body);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "{ message: 'quick message deleted' }" })
  @ApiResponse({ status: 403, description: "ERR_NO_PERMISSION: another user's reply" })
  @ApiResponse({ status: 404, description: 'ERR_NO_QUICK_MESSAGE_FOUND' })
  async remove(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.quick.remove(caller, id);
    return { message: 'quick message deleted' };
  }

  /** The attachment (multipart `file`; `typeArch` is taken and ignored): an image, audio, video or document. */
  @Post(':id/media-upload')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description:
      'the quick reply with its attachment (isMedia, mediaPath, mediaName): { id, shortcode, message, geral, isMedia, mediaPath, mediaName, userId, … }',
  })
  @ApiResponse({ status: 404, description: 'ERR_NO_QUICK_MESSAGE_FOUND' })
  @ApiResponse({ status: 413, description: 'ERR_PAYLOAD_TOO_LARGE' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' }, typeArch: { type: 'string' } } } })
  @UseInterceptors(FileInterceptor('file', mediaUploadOptions(1)), DiscardUploadsInterceptor)
  async upload(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseIntPipe) id: number,
    @UploadedFile() file: UploadedDiskFile | undefined,
  ): Promise<QuickMessageDto> {
    return this.quick.attachMedia(caller, id, file);
  }

  @Delete(':id/media-upload')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description: 'the quick reply without its attachment: { id, shortcode, message, geral, isMedia, mediaPath, mediaName, userId, … }',
  })
  @ApiResponse({ status: 404, description: 'ERR_NO_QUICK_MESSAGE_FOUND' })
  async removeMedia(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<QuickMessageDto> {
    return this.quick.detachMedia(caller, id);
  }
}
