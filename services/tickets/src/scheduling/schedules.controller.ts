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
import { ApiBody, ApiConsumes, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { ScheduleDto, SchedulesPage } from '@wa/contracts';
import { DiscardUploadsInterceptor, mediaUploadOptions, type UploadedDiskFile } from '@wa/server-kit';
import type { Caller } from '../identity/caller.service.js';
import { CurrentCaller } from '../identity/current-caller.js';
import { CreateScheduleDto, ListSchedulesQueryDto, UpdateScheduleDto } from './schedules.dto.js';
import { SchedulesService } from './schedules.service.js';

@ApiTags('schedules')
@Controller('schedules')
export class SchedulesController {
  constructor(private readonly schedules: SchedulesService) {}

  @Get()
  @ApiResponse({
    status: 200,
    description:
      'a page of scheduled messages: { schedules: [{ id, body, contactId, contact, sendAt, sentAt, status, reason, ticketId, mediaPath, mediaName, … }], hasMore, count }',
  })
  async page(@CurrentCaller() caller: Caller, @Query() query: ListSchedulesQueryDto): Promise<SchedulesPage> {
    return this.schedules.page(caller, query);
  }

  @Get(':id')
  @ApiResponse({
    status: 200,
    description:
      'the scheduled message: { id, body, contactId, contact, sendAt, sentAt, status, reason, ticketId, mediaPath, mediaName, … }',
  })
  @ApiResponse({ status: 404, description: 'ERR_NO_SCHEDULE_FOUND' })
  async get(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<ScheduleDto> {
    return this.schedules.get(caller, id);
  }

  @Post()
  @ApiResponse({
    status: 201,
    description:
      'the message scheduled: { id, body, contactId, contact, sendAt, sentAt, status, reason, ticketId, mediaPath, mediaName, … }',
  })
  @ApiResponse({ status: 404, description: 'ERR_NO_CONTACT_FOUND, ERR_NO_DEF_WAPP_FOUND' })
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateScheduleDto): Promise<ScheduleDto> {
    return this.schedules.create(caller, body);
  }

  @Put(':id')
  @ApiResponse({
    status: 200,
    description:
      'the scheduled message as it is now: { id, body, contactId, contact, sendAt, sentAt, status, reason, ticketId, mediaPath, mediaName, … }',
  })
  @ApiResponse({ status: 404, description: 'ERR_NO_SCHEDULE_FOUND, ERR_NO_CONTACT_FOUND' })
  @ApiResponse({ status: 409, description: 'ERR_SCHEDULE_ALREADY_SENT' })
  async update(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseIntPipe) id: number,
    @Body() body: UpdateScheduleDto,
  ): Promise<ScheduleDto> {
    return this.schedules.update(caller, id, body);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "{ message: 'Schedule deleted' }" })
  @ApiResponse({ status: 404, description: 'ERR_NO_SCHEDULE_FOUND' })
  async remove(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.schedules.remove(caller, id);
    return { message: 'Schedule deleted' };
  }

  /** The picture sent with the message (multipart `file`): png, jpg or jpeg. */
  @Post(':id/media-upload')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description:
      'the scheduled message with its attachment: { id, body, contactId, contact, sendAt, sentAt, status, reason, ticketId, mediaPath, mediaName, … }',
  })
  @ApiResponse({ status: 404, description: 'ERR_NO_SCHEDULE_FOUND' })
  @ApiResponse({ status: 409, description: 'ERR_SCHEDULE_ALREADY_SENT' })
  @ApiResponse({ status: 413, description: 'ERR_PAYLOAD_TOO_LARGE' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } })
  @UseInterceptors(FileInterceptor('file', mediaUploadOptions(1)), DiscardUploadsInterceptor)
  async upload(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseIntPipe) id: number,
    @UploadedFile() file: UploadedDiskFile | undefined,
  ): Promise<ScheduleDto> {
    return this.schedules.attachMedia(caller, id, file);
  }

  @Delete(':id/media-upload')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description:
      'the scheduled message without its attachment: { id, body, contactId, contact, sendAt, sentAt, status, reason, ticketId, mediaPath, mediaName, … }',
  })
  @ApiResponse({ status: 404, description: 'ERR_NO_SCHEDULE_FOUND' })
  @ApiResponse({ status: 409, description: 'ERR_SCHEDULE_ALREADY_SENT' })
  async removeMedia(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<ScheduleDto> {
    return this.schedules.detachMedia(caller, id);
  }
}
