import { ApiResponse } from '@nestjs/swagger';
import { Public } from '../context/public.js';
import { Controller, Get, Header, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** One registry per process. */
export const metricsRegistry = new Registry();

/**
 * How often the event loop's delay is sampled (ms) for `nodejs_eventloop_lag_*`. prom-client's default, 10 ms, woke
 * every idle service ~110 times a second, which on this kind of VM cost each one 0.4–0.8 CPU s in 30 s (six idle
 * services: 3.2 CPU s in 30 s, ~11 % of a core; at 100 ms: 2.1 s, ~20 wake-ups a second; issue 44's note). Node's
 * histogram records each sample's whole interval, so an idle loop reads ~0.1 s here (0.01 s before); a loop held
 * over 500 ms, what the alert watches (k8s/monitoring/prometheus-rules.yaml), reaches the p99 sooner with fewer
 * samples (metrics.spec).
 */
export const EVENT_LOOP_SAMPLE_MS = 100;
let defaultsCollected = false;

export function initMetrics(service: string): void {
  if (defaultsCollected) return;
  metricsRegistry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  defaultsCollected = true;
}

/**
 * A gauge read at each scrape (`read` answers its value now: the process's own state, or a count it asks for, which
 * is left out of the scrape when it fails or takes longer than `timeoutMs`).
 */
export function liveGauge(name: string, help: string, read: () => number | Promise<number>, timeoutMs = 2_000): void {
  new Gauge({
    name,
    help,
    registers: [metricsRegistry],
    async collect() {
      this.reset();
      let timer: NodeJS.Timeout | undefined;
      const value = await Promise.race([
        Promise.resolve()
          .then(read)
          .catch(() => undefined),
        new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs))),
      ]).finally(() => clearTimeout(timer));
      if (value !== undefined) this.set(value);
    },
  });
}

export const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests by method, route and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});

const METRICS_ROUTE = Symbol('metricsRoute');
type RoutedRequest = Request & { [METRICS_ROUTE]?: string };

/**
 * The `route` label of a request no route of this process answers (the gateway's proxied calls): the route it
 * was matched to elsewhere, a bounded set of names, never the raw path.
 */
export function setMetricsRoute(req: Request, route: string): void {
  (req as RoutedRequest)[METRICS_ROUTE] = route;
}

@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  use(req: Request, res: Response, next: NextFunction): void {
    const end = httpDuration.startTimer();
    res.on('finish', () => {
      const own = (req.route as { path?: string } | undefined)?.path;
      const route = own !== undefined ? `${req.baseUrl ?? ''}${own}` : ((req as RoutedRequest)[METRICS_ROUTE] ?? 'unmatched');
      end({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  }
}

@Public()
@Controller()
export class MetricsController {
  @Get('metrics')
  @ApiResponse({ status: 200, description: "the process's metrics in Prometheus' text format" })
  @Header('Content-Type', metricsRegistry.contentType)
  async metrics(): Promise<string> {
    return metricsRegistry.metrics();
  }
}
