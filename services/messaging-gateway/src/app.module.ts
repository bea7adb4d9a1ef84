import { Module, type DynamicModule, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { AuthLibModule } from '@wa/auth';
import { serviceModules } from '@wa/server-kit';
import { GatewayEnv } from './config/env.js';
import { OpenApiAggregator } from './docs/openapi.aggregator.js';
import { ApiGate } from './public-api/api-gate.js';
import { GatewayMiddleware } from './routing/gateway.middleware.js';
import { ProxyService } from './routing/proxy.service.js';

export const SERVICE = 'messaging-gateway';

@Module({})
export class AppModule implements NestModule {
  static register(env: GatewayEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [...serviceModules({ service: SERVICE, env }), AuthLibModule.forRoot({ secret: env.JWT_SECRET })],
      providers: [{ provide: GatewayEnv, useValue: env }, ProxyService, OpenApiAggregator, ApiGate],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(GatewayMiddleware).forRoutes('*path');
  }
}
