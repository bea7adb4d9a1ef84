import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, Query, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { DiscardUploadsInterceptor, mediaUploadOptions, type UploadedDiskFile } from '@wa/server-kit';
import { ApiBody, ApiConsumes, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '@wa/auth';
import type { AccessTokenClaims, QuickMessageDto, QuickMessagesPage } from '@wa/contracts';
import { CallerService } from '../../identity/caller.service.js';
import { CreateQuickMessageDto, ListQuickMessagesQueryDto, UpdateQuickMessageDto } from './quick-messages.dto.js';
import { QuickMessagesService } from './quick-messages.service.js';

@ApiTags('quick-messages')
@Controller('quick-messages')
export class QuickMessagesController {
  constructor(
    private readonly quick: QuickMessagesService,
    private readonly callers: CallerService,
  ) {}

  @Get()
  async page(@CurrentUser() claims: AccessTokenClaims, @Query() query: ListQuickMessagesQueryDto): Promise<QuickMessagesPage> {
    return this.quick.page(await this.callers.of(claims), query);
  }

  @Get('list')
  async list(@CurrentUser() claims: AccessTokenClaims, @Query() _query: ListQuickMessagesQueryDto): Promise<QuickMessageDto[]> {
    return this.quick.list(await this.callers.of(claims));
  }

  @Get(':id')
  async get(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<QuickMessageDto> {
    return this.quick.get(await this.callers.of(claims), id);
  }

  @Post()
  async create(@CurrentUser() claims: AccessTokenClaims, @Body() body: CreateQuickMessageDto): Promise<QuickMessageDto> {
    return this.quick.create(await this.callers.of(claims), body);
  }

  @Put(':id')
  async update(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number, @Body() body: UpdateQuickMessageDto): Promise<QuickMessageDto> {
    return this.quick.update(await this.callers.of(claims), id, body);
  }

  @Delete(':id')
  @HttpCode(200)
  async remove(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.quick.remove(await this.callers.of(claims), id);
    return { message: 'quick message deleted' };
  }

  /** The attachment (multipart `file`; `typeArch` is taken and ignored): an image, audio, video or document. */
  @Post(':id/media-upload')
  @HttpCode(200)
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' }, typeArch: { type: 'string' } } } })
  @UseInterceptors(FileInterceptor('file', mediaUploadOptions(1)), DiscardUploadsInterceptor)
  async upload(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number, @UploadedFile() file: UploadedDiskFile | undefined): Promise<QuickMessageDto> {
    return this.quick.attachMedia(await this.callers.of(claims), id, file);
  }

  @Delete(':id/media-upload')
  @HttpCode(200)
  async removeMedia(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<QuickMessageDto> {
    return this.quick.detachMedia(await this.callers.of(claims), id);
  }
}
