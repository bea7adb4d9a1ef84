import { Module } from '@nestjs/common';
import { ConnectionsModule } from '../connections/connections.module.js';
import { RuntimeModule } from '../runtime/runtime.module.js';
import { SessionsController } from './sessions.controller.js';
import { SessionsService } from './sessions.service.js';

/** `/whatsappsession`: a connection's session started, restarted, ended and placed, and the sandbox phone's hooks. */
@Module({
  imports: [ConnectionsModule, RuntimeModule],
  controllers: [SessionsController],
  providers: [SessionsService],
})
export class SessionsModule {}
