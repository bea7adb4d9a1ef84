import { Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { SuperOnly } from '@wa/auth';
import type { PlatformSessionsPage, ReplicaDrainDto } from '@wa/contracts';
import { PlatformSessionsQueryDto } from './platform-sessions.dto.js';
import { PlatformSessionsService } from './platform-sessions.service.js';

/** The platform operators' view of the WhatsApp sessions: replicas, where each connection runs, its health; drains. */
@ApiTags('platform')
@SuperOnly()
@Controller('platform/sessions')
export class PlatformSessionsController {
  constructor(private readonly sessions: PlatformSessionsService) {}

  @Get()
  view(@Query() query: PlatformSessionsQueryDto): Promise<PlatformSessionsPage> {
    return this.sessions.view(query);
  }

  /** The replica hands all its sessions over to the others and takes none, until undone. */
  @Post('replicas/:name/drain')
  @HttpCode(200)
  drain(@Param('name') name: string): Promise<ReplicaDrainDto> {
    return this.sessions.drain(name, true);
  }

  @Delete('replicas/:name/drain')
  undrain(@Param('name') name: string): Promise<ReplicaDrainDto> {
    return this.sessions.drain(name, false);
  }
}
