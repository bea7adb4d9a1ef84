import { Logger, type DynamicModule, type Provider } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { StreamAccess } from '@wa/contracts';
import { dataSourceOptions, type ServiceDatabaseOptions } from '@wa/database';
import { EventBus, EventBusModule, type BusLogger, type StreamSpec } from '@wa/event-bus';
import type { MessagingEnv } from './config/base.env.js';
import { HEALTH_BUS, HEALTH_DATASOURCE } from './health/health.controller.js';
import { ServiceKitModule } from './service-kit.module.js';
import { BusMetrics } from './metrics/bus-metrics.js';
import { PoolWarmer } from './health/pool-warmer.js';

export interface ServiceModulesOptions {
  service: string;
  env: MessagingEnv;
  /** the service's own schema, entities and migrations; absent for services without tables */
  database?: ServiceDatabaseOptions;
  /**
   * The streams it publishes to (declared at connect) and those it only consumes (left to their publisher).
   * Default: the service's entry of StreamAccess (@wa/contracts), which k8s/base/nats.conf grants.
   */
  streams?: { owns: readonly StreamDef[]; reads: readonly StreamDef[] };
}

interface StreamDef {
  name: string;
  subjects: readonly string[];
}

const copyStream = (s: StreamDef): StreamSpec => ({ ...s, subjects: [...s.subjects] });

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
  const streams = opts.streams ?? StreamAccess[opts.service];
  if (!streams) throw new Error(`serviceModules: no StreamAccess entry for ${opts.service}`);
  const healthProviders: Provider[] = [{ provide: HEALTH_BUS, useExisting: EventBus }, BusMetrics];
  const modules: DynamicModule[] = [];
  if (opts.database) {
    healthProviders.push({ provide: HEALTH_DATASOURCE, useExisting: getDataSourceToken() }, PoolWarmer);
    modules.push(TypeOrmModule.forRoot(dataSourceOptions(opts.database)));
  }
  return [
    ServiceKitModule.forRoot({ service: opts.service, logLevel: opts.env.LOG_LEVEL, redisUrl: opts.env.REDIS_URL, healthProviders }),
    ...modules,
    EventBusModule.forRootAsync({
      useFactory: () => ({
        servers: opts.env.NATS_URL,
        name: opts.service,
        streams: streams.owns.map(copyStream),
        reads: streams.reads.map(copyStream),
        ...(opts.env.NATS_USER
          ? { user: opts.env.NATS_USER, pass: opts.env.NATS_PASSWORD, inboxPrefix: `_INBOX.${opts.env.NATS_USER}` }
          : {}),
        logger: busLogger(opts.service),
        limits: {
          maxAgeMs: opts.env.NATS_STREAM_MAX_AGE_S * 1000,
          ...(opts.env.NATS_STREAM_MAX_BYTES > 0 ? { maxBytes: opts.env.NATS_STREAM_MAX_BYTES } : {}),
        },
      }),
    }),
  ];
}
