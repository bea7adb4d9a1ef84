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
import { ApiBody, ApiConsumes, ApiTags } from '@nestjs/swagger';
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
  async page(@CurrentCaller() caller: Caller, @Query() query: ListQuickMessagesQueryDto): Promise<QuickMessagesPage> {
    return this.quick.page(caller, query);
  }

  @Get('list')
  async list(@CurrentCaller() caller: Caller, @Query() _query: ListQuickMessagesQueryDto): Promise<QuickMessageDto[]> {
    return this.quick.list(caller);
  }

  @Get(':id')
  async get(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<QuickMessageDto> {
    return this.quick.get(caller, id);
  }

  @Post()
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateQuickMessageDto): Promise<QuickMessageDto> {
    return this.quick.create(caller, body);
  }

  @Put(':id')
  async update(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseIntPipe) id: number,
    @Body() body: UpdateQuickMessageDto,
  ): Promise<QuickMessageDto> {
    return this.quick.update(caller, id, body);
  }

  @Delete(':id')
  @HttpCode(200)
  async remove(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.quick.remove(caller, id);
    return { message: 'quick message deleted' };
  }

  /** The attachment (multipart `file`; `typeArch` is taken and ignored): an image, audio, video or document. */
  @Post(':id/media-upload')
  @HttpCode(200)
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
  async removeMedia(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<QuickMessageDto> {
    return this.quick.detachMedia(caller, id);
  }
}
