import {
  Global,
  Inject,
  Logger,
  Module,
  type BeforeApplicationShutdown,
  type DynamicModule,
  type MiddlewareConsumer,
  type NestModule,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { APP_FILTER, HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import { TerminusModule } from '@nestjs/terminus';
import { DomainErrorFilter } from './errors/domain-error.filter.js';
import { HealthController } from './health/health.controller.js';
import { loggingModule } from './logging/logging.module.js';
import { HttpMetricsMiddleware, initMetrics, MetricsController } from './metrics/metrics.js';
import { RedisModule } from './redis/redis.module.js';

export const SERVICE_NAME = Symbol.for('wa.service-name');

export interface ServiceKitOptions {
  service: string;
  logLevel: string;
  /** Redis URL; every service but none of the tests that do without it */
  redisUrl?: string;
  /** providers for HEALTH_DATASOURCE / HEALTH_BUS (useExisting of the service's DataSource and EventBus) */
  healthProviders?: Provider[];
}

/** Logging, errors, health, metrics and Redis: the Nest plumbing every service shares. */
@Global()
@Module({})
export class ServiceKitModule implements NestModule, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('Shutdown');

  private idleCloser: NodeJS.Timeout | undefined;

  constructor(
    @Inject(SERVICE_NAME) private readonly service: string,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  beforeApplicationShutdown(signal?: string): void {
    this.logger.log({ service: this.service, signal }, 'stopping: no new requests, draining consumers');
    // keep-alive connections that fall idle while in-flight requests finish are closed at once,
    // so the server does not wait out their keep-alive timeout
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (server?.closeIdleConnections) {
      this.idleCloser = setInterval(() => server.closeIdleConnections(), 50);
      this.idleCloser.unref();
    }
  }

  onApplicationShutdown(signal?: string): void {
    clearInterval(this.idleCloser);
    this.logger.log({ service: this.service, signal }, 'stopped: connections closed');
  }

  static forRoot(options: ServiceKitOptions): DynamicModule {
    initMetrics(options.service);
    return {
      module: ServiceKitModule,
      imports: [
        loggingModule(options.service, options.logLevel),
        TerminusModule.forRoot({ logger: false }),
        ...(options.redisUrl ? [RedisModule.forRoot(options.redisUrl, options.service)] : []),
      ],
      controllers: [HealthController, MetricsController],
      providers: [
        { provide: APP_FILTER, useClass: DomainErrorFilter },
        { provide: SERVICE_NAME, useValue: options.service },
        ...(options.healthProviders ?? []),
      ],
      exports: [...(options.healthProviders ?? [])],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(HttpMetricsMiddleware).forRoutes('*path');
  }
}
