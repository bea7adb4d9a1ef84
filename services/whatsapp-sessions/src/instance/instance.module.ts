import { Module } from '@nestjs/common';
import { ConnectionsModule } from '../connections/connections.module.js';
import { RuntimeModule } from '../runtime/runtime.module.js';
import { InstanceController } from './instance.controller.js';
import { InstanceService } from './instance.service.js';

/** `/api/v1/instance`: the public API's instance control (the API token's connection), routed by the gateway. */
@Module({
  imports: [ConnectionsModule, RuntimeModule],
  controllers: [InstanceController],
  providers: [InstanceService],
})
export class InstanceModule {}
