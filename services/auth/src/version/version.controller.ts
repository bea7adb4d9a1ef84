import { Controller, Get } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '@wa/auth';
import { AuthEnv } from '../config/env.js';

@ApiTags('session')
@Controller()
export class VersionController {
  constructor(private readonly env: AuthEnv) {}

  @Public()
  @Get('version')
  @ApiResponse({ status: 200, description: 'the running version: { version }' })
  version(): { version: string } {
    return { version: this.env.APP_VERSION };
  }
}
