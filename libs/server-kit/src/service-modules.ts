import { Logger, type DynamicModule, type Provider } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { dataSourceOptions, type ServiceDatabaseOptions } from '@wa/database';
import { EventBus, EventBusModule, type BusLogger } from '@wa/event-bus';
import type { MessagingEnv } from './config/base.env.js';
import { HEALTH_BUS, HEALTH_DATASOURCE } from './health/health.controller.js';
import { ServiceKitModule } from './service-kit.module.js';
import { BusMetrics } from './metrics/bus-metrics.js';

export interface ServiceModulesOptions {
  service: string;
  env: MessagingEnv;
  /** the service's own schema, entities and migrations; absent for services without tables */
  database?: ServiceDatabaseOptions;
}

/** The bus logs through the service's pino logger. */
export function busLogger(service: string): BusLogger {
  const logger = new Logger(`${service}:bus`);
  return {
    info: (obj, msg) => logger.log(obj, msg),
    warn: (obj, msg) => logger.warn(obj, msg),
    error: (obj, msg) => logger.error(obj, msg),
  };
}

/**
 * What every service imports: logging, errors, health and metrics (ServiceKitModule), Redis,
 * the event bus and, when it has tables, its TypeORM data source. /health checks each of them.
 */
export function serviceModules(opts: ServiceModulesOptions): DynamicModule[] {
  const healthProviders: Provider[] = [{ provide: HEALTH_BUS, useExisting: EventBus }, BusMetrics];
  const modules: DynamicModule[] = [];
  if (opts.database) {
    healthProviders.push({ provide: HEALTH_DATASOURCE, useExisting: getDataSourceToken() });
    modules.push(TypeOrmModule.forRoot(dataSourceOptions(opts.database)));
  }
  return [
    ServiceKitModule.forRoot({ service: opts.service, logLevel: opts.env.LOG_LEVEL, redisUrl: opts.env.REDIS_URL, healthProviders }),
    ...modules,
    EventBusModule.forRootAsync({
      useFactory: () => ({
        servers: opts.env.NATS_URL,
        name: opts.service,
        logger: busLogger(opts.service),
        limits: { maxAgeMs: opts.env.NATS_STREAM_MAX_AGE_S * 1000, ...(opts.env.NATS_STREAM_MAX_BYTES > 0 ? { maxBytes: opts.env.NATS_STREAM_MAX_BYTES } : {}) },
      }),
    }),
  ];
}
