import { Module } from '@nestjs/common';
import { RuntimeModule } from '../runtime/runtime.module.js';
import { PlatformSessionsController } from './platform-sessions.controller.js';
import { PlatformSessionsRepository } from './platform-sessions.repository.js';
import { PlatformSessionsService } from './platform-sessions.service.js';

/** `/platform/sessions`: what platform operators see of the sessions and the replicas running them. */
@Module({
  imports: [RuntimeModule],
  controllers: [PlatformSessionsController],
  providers: [PlatformSessionsService, PlatformSessionsRepository],
})
export class OperatorsModule {}
