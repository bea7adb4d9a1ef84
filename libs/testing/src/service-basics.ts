import { describe, expect, it } from '@jest/globals';
import { HttpClient } from './http-client.js';
import type { RunningApp } from './boot.js';

export interface ServiceBasicsOptions {
  name: string;
  /** boots the service in-process against the real servers */
  start: () => Promise<RunningApp>;
  /** connections its /health reports */
  checks: Array<'postgres' | 'redis' | 'nats'>;
  /** a route that exists and needs a token, if the service has one yet */
  protectedPath?: string;
}

/** What every service promises: /health with its connections, /metrics, token-checked routes, JSON 404s. */
export function describeServiceBasics(opts: ServiceBasicsOptions): void {
  describe(`${opts.name}: basics`, () => {
    it('answers /health with the state of each of its connections, and /metrics in Prometheus format', async () => {
      const svc = await opts.start();
      try {
        const http = new HttpClient(svc.baseUrl);
        const health = await http.get('/health');
        expect(health.status).toBe(200);
        // `degraded` (still 200) says dead letters or set-aside outbox rows wait for an operator; other
        // suites share the servers, so this one cannot promise there are none
        expect(['ok', 'degraded']).toContain(health.body.status);
        if (health.body.status === 'degraded')
          expect(health.body.details.deadLetters ?? health.body.details.outbox).toMatchObject({ status: 'degraded' });
        for (const check of opts.checks) expect(health.body.details[check].status).toBe('up');
        // liveness asks nothing; readiness is the same check as /health
        expect(await http.get('/health/live')).toMatchObject({ status: 200, body: { status: 'ok' } });
        const ready = await http.get('/health/ready');
        expect(ready.status).toBe(200);
        for (const check of opts.checks) expect(ready.body.details[check].status).toBe('up');
        await http.get('/nothing-here');
        const metrics = await http.get('/metrics');
        expect(metrics.status).toBe(200);
        expect(metrics.headers.get('content-type')).toMatch(/text\/plain/);
        expect(metrics.body).toMatch(/^process_cpu_user_seconds_total\{service="[^"]+"\} \d/m);
        expect(metrics.body).toMatch(/http_request_duration_seconds_count\{[^}]*status="404"/);
      } finally {
        await svc.close();
      }
    });

    it('answers an unknown path with a JSON 404 and echoes the request id', async () => {
      const svc = await opts.start();
      try {
        const res = await new HttpClient(svc.baseUrl).get('/no/such/path', { headers: { 'x-request-id': 'test-req-42' } });
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ error: 'ERR_NOT_FOUND', statusCode: 404, requestId: 'test-req-42' });
        expect(res.headers.get('x-request-id')).toBe('test-req-42');
        if (opts.protectedPath) {
          const denied = await new HttpClient(svc.baseUrl).get(opts.protectedPath);
          expect(denied.status).toBe(401);
          expect(denied.body.error).toBe('ERR_SESSION_EXPIRED');
        }
      } finally {
        await svc.close();
      }
    });
  });
}
