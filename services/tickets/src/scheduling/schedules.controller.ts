import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, Query, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '@wa/auth';
import type { AccessTokenClaims, ScheduleDto, SchedulesPage } from '@wa/contracts';
import { DiscardUploadsInterceptor, mediaUploadOptions, type UploadedDiskFile } from '@wa/server-kit';
import { CallerService } from '../identity/caller.service.js';
import { CreateScheduleDto, ListSchedulesQueryDto, UpdateScheduleDto } from './schedules.dto.js';
import { SchedulesService } from './schedules.service.js';

@ApiTags('schedules')
@Controller('schedules')
export class SchedulesController {
  constructor(
    private readonly schedules: SchedulesService,
    private readonly callers: CallerService,
  ) {}

  @Get()
  async page(@CurrentUser() claims: AccessTokenClaims, @Query() query: ListSchedulesQueryDto): Promise<SchedulesPage> {
    return this.schedules.page(await this.callers.of(claims), query);
  }

  @Get(':id')
  async get(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<ScheduleDto> {
    return this.schedules.get(await this.callers.of(claims), id);
  }

  @Post()
  async create(@CurrentUser() claims: AccessTokenClaims, @Body() body: CreateScheduleDto): Promise<ScheduleDto> {
    return this.schedules.create(await this.callers.of(claims), body);
  }

  @Put(':id')
  async update(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number, @Body() body: UpdateScheduleDto): Promise<ScheduleDto> {
    return this.schedules.update(await this.callers.of(claims), id, body);
  }

  @Delete(':id')
  @HttpCode(200)
  async remove(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.schedules.remove(await this.callers.of(claims), id);
    return { message: 'Schedule deleted' };
  }

  /** The picture sent with the message (multipart `file`): png, jpg or jpeg. */
  @Post(':id/media-upload')
  @HttpCode(200)
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } })
  @UseInterceptors(FileInterceptor('file', mediaUploadOptions(1)), DiscardUploadsInterceptor)
  async upload(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number, @UploadedFile() file: UploadedDiskFile | undefined): Promise<ScheduleDto> {
    return this.schedules.attachMedia(await this.callers.of(claims), id, file);
  }

  @Delete(':id/media-upload')
  @HttpCode(200)
  async removeMedia(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<ScheduleDto> {
    return this.schedules.detachMedia(await this.callers.of(claims), id);
  }
}
