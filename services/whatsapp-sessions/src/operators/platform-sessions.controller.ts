import { Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
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
  @ApiResponse({
    status: 200,
    description: "every replica and a page of every company's sessions: { replicas, connections, count, hasMore }",
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: super users only' })
  view(@Query() query: PlatformSessionsQueryDto): Promise<PlatformSessionsPage> {
    return this.sessions.view(query);
  }

  /** The replica hands all its sessions over to the others and takes none, until undone. */
  @Post('replicas/:name/drain')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: '{ name, draining: true }' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: super users only' })
  drain(@Param('name') name: string): Promise<ReplicaDrainDto> {
    return this.sessions.drain(name, true);
  }

  @Delete('replicas/:name/drain')
  @ApiResponse({ status: 200, description: '{ name, draining: false }' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: super users only' })
  undrain(@Param('name') name: string): Promise<ReplicaDrainDto> {
    return this.sessions.drain(name, false);
  }
}
