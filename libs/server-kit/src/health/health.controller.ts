import { ApiResponse } from '@nestjs/swagger';
import { Public } from '../context/public.js';
import { Controller, Get, HttpCode, Inject, Optional, Res } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorService, type HealthIndicatorFunction } from '@nestjs/terminus';
import type { Response } from 'express';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { REDIS } from '../redis/redis.module.js';
import { parkedOutboxRows, withTimeout } from '../metrics/bus-metrics.js';
import { PING } from './health.queries.js';

export const HEALTH_DATASOURCE = Symbol.for('wa.health.datasource');
export const HEALTH_BUS = Symbol.for('wa.health.bus');

export interface BusProbe {
  ping(): Promise<number>;
  /** messages in the dead-letter stream */
  deadLetterCount?(): Promise<number>;
}

const TIMEOUT_MS = 1500;

/**
 * `GET /health`: the state of the process's PostgreSQL, Redis and NATS connections; 503 when one is down.
 * Work set aside for an operator (dead letters, parked outbox rows) makes it `degraded`, still 200: the
 * process can serve, so readiness holds, but someone should look (`npm run dlq -- list`).
 */
@Public()
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    @Optional() @Inject(HEALTH_DATASOURCE) private readonly dataSource?: DataSource,
    @Optional() @Inject(REDIS) private readonly redis?: Redis,
    @Optional() @Inject(HEALTH_BUS) private readonly bus?: BusProbe,
  ) {}

  /** Liveness: the process answers (no dependency is asked: an outage must not get the pod restarted). */
  @Get('health/live')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "the process answers: { status: 'ok' }" })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: every dependency answers (503 otherwise); `/health` is the same check. */
  @Get(['health', 'health/ready'])
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description:
      "every dependency answers: { status: 'ok', info: { postgres, redis, nats, … } } (status 'degraded' names what needs attention)",
  })
  @ApiResponse({
    status: 503,
    description: "a dependency does not answer: { status: 'error', error: { <name>: { status: 'down', message } } }",
    schema: { type: 'object' },
  })
  async check(@Res() res: Response): Promise<void> {
    const checks: HealthIndicatorFunction[] = [];
    const ds = this.dataSource;
    if (ds) {
      checks.push(() =>
        this.indicators
          .check('postgres')
          .attempt(async () => {
            if (!ds.isInitialized) throw new Error('not connected');
            await ds.query(PING);
          })
          .withTimeout(TIMEOUT_MS),
      );
    }
    const redis = this.redis;
    if (redis) {
      checks.push(() =>
        this.indicators
          .check('redis')
          .attempt(async () => {
            if (redis.status !== 'ready') throw new Error(`redis ${redis.status}`);
            await redis.ping();
          })
          .withTimeout(TIMEOUT_MS),
      );
    }
    const bus = this.bus;
    if (bus) {
      checks.push(() =>
        this.indicators
          .check('nats')
          .attempt(async () => ({ rttMs: await bus.ping() }))
          .withTimeout(TIMEOUT_MS),
      );
    }
    try {
      const result = (await this.health.check(checks)) as {
        status: string;
        info?: Record<string, unknown>;
        details?: Record<string, unknown>;
      };
      const attention = await this.attention();
      if (attention) {
        result.status = 'degraded';
        result.info = { ...result.info, ...attention };
        result.details = { ...result.details, ...attention };
      }
      res.status(200).json(result);
    } catch (err) {
      const body = (err as { getResponse?: () => unknown }).getResponse?.() ?? { status: 'error' };
      res.status(503).json(body);
    }
  }

  private async attention(): Promise<Record<string, { status: 'degraded'; [k: string]: unknown }> | undefined> {
    const out: Record<string, { status: 'degraded'; [k: string]: unknown }> = {};
    const count = this.bus?.deadLetterCount?.bind(this.bus);
    const deadLetters = count ? await withTimeout(count(), TIMEOUT_MS) : undefined;
    if (deadLetters) out.deadLetters = { status: 'degraded', messages: deadLetters, see: 'npm run dlq -- list' };
    const parked = await withTimeout(parkedOutboxRows(), TIMEOUT_MS);
    if (parked) out.outbox = { status: 'degraded', parked };
    return Object.keys(out).length > 0 ? out : undefined;
  }
}
