// Keeps the operators' alerts and dashboard (k8s/monitoring) honest: every metric they name is one the services
// export (read from the code), every alert says how bad it is and what happened, the kustomization's files exist.
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MONITORING = join(ROOT, 'k8s', 'monitoring');

/** prom-client's default metrics (collectDefaultMetrics in libs/server-kit) that the material uses. */
const DEFAULT_METRICS = new Set(['nodejs_eventloop_lag_p99_seconds', 'process_resident_memory_bytes']);
/** What Prometheus itself adds. */
const PROMETHEUS_METRICS = new Set(['up']);
const PROMQL_WORDS = new Set([
  'sum',
  'max',
  'min',
  'avg',
  'count',
  'by',
  'without',
  'rate',
  'increase',
  'irate',
  'histogram_quantile',
  'le',
  'and',
  'or',
  'unless',
  'on',
  'ignoring',
  'bool',
  'offset',
]);

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'test' || name === '__tests__') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.spec.ts')) out.push(path);
  }
  return out;
}

/** Every metric name the services and libraries register: `name: '…'` of prom-client, and the helpers' first argument. */
const exported = (() => {
  const names = new Set<string>();
  const code = [...sourceFiles(join(ROOT, 'services')), ...sourceFiles(join(ROOT, 'libs'))].map((f) => readFileSync(f, 'utf8')).join('\n');
  for (const m of code.matchAll(/\bname:\s*'([a-z_][a-z0-9_]*)'/g)) names.add(m[1] as string);
  for (const m of code.matchAll(/\b(?:liveGauge|counter)\(\s*'([a-z_][a-z0-9_]*)'/g)) names.add(m[1] as string);
  return names;
})();

/** The metric names a PromQL expression reads (label names, values and functions left out). */
function metricsOf(expr: string): string[] {
  const bare = expr
    .replace(/"[^"]*"/g, '""') // label values
    .replace(/\{[^}]*\}/g, '') // label matchers
    .replace(/\[[^\]]*\]/g, '') // ranges
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, ''); // grouping labels
  const names = new Set<string>();
  for (const m of bare.matchAll(/\b([a-z_][a-z0-9_]*)\b/g)) {
    const name = m[1] as string;
    if (!PROMQL_WORDS.has(name)) names.add(name);
  }
  return [...names];
}

function known(metric: string): boolean {
  if (DEFAULT_METRICS.has(metric) || PROMETHEUS_METRICS.has(metric) || exported.has(metric)) return true;
  const histogram = /^(.*)_(bucket|count|sum)$/.exec(metric);
  return !!histogram && exported.has(histogram[1] as string);
}

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: { severity?: string };
  annotations?: { summary?: string };
}

const rules = parse(readFileSync(join(MONITORING, 'prometheus-rules.yaml'), 'utf8')) as {
  kind: string;
  apiVersion: string;
  spec: { groups: Array<{ name: string; rules: Rule[] }> };
};
const dashboard = JSON.parse(readFileSync(join(MONITORING, 'conversa-dashboard.json'), 'utf8')) as {
  uid: string;
  panels: Array<{ id: number; title: string; targets: Array<{ expr: string }> }>;
};

describe('k8s/monitoring', () => {
  it('reads the metrics it is checked against from the code (the checker itself finds them)', () => {
    for (const m of [
      'outbox_rows',
      'job_queue_jobs',
      'realtime_connected_sockets',
      'webhook_deliveries_pending',
      'http_request_duration_seconds',
    ])
      expect([m, exported.has(m)]).toEqual([m, true]);
    expect(known('http_request_duration_seconds_bucket')).toBe(true);
    expect(known('conversa_no_such_metric')).toBe(false);
    expect(metricsOf('sum by (service) (rate(http_request_duration_seconds_count{status=~"5.."}[5m])) > 0.05')).toEqual([
      'http_request_duration_seconds_count',
    ]);
  });

  it('alerts only on metrics the services export, each with a severity, a summary and a wait', () => {
    expect([rules.apiVersion, rules.kind]).toEqual(['monitoring.coreos.com/v1', 'PrometheusRule']);
    const all = rules.spec.groups.flatMap((g) => g.rules);
    expect(all.length).toBeGreaterThanOrEqual(10);
    expect(new Set(all.map((r) => r.alert)).size).toBe(all.length);
    for (const r of all) {
      expect([r.alert, metricsOf(r.expr).filter((m) => !known(m))]).toEqual([r.alert, []]);
      expect([r.alert, r.labels?.severity]).toEqual([r.alert, expect.stringMatching(/^(critical|warning)$/)]);
      expect([r.alert, typeof r.annotations?.summary, r.for]).toEqual([r.alert, 'string', expect.stringMatching(/^\d+m$/)]);
    }
    // what the operators asked to be warned of (issue 45 §9)
    const watched = new Set(all.flatMap((r) => metricsOf(r.expr)));
    for (const m of [
      'realtime_connected_sockets',
      'job_queue_jobs',
      'webhook_deliveries_oldest_pending_seconds',
      'whatsapp_sessions_sessions',
    ])
      expect([m, watched.has(m)]).toEqual([m, true]);
  });

  it('shows on the dashboard only metrics the services export, in panels of their own', () => {
    expect(dashboard.uid).toBe('conversa-overview');
    expect(new Set(dashboard.panels.map((p) => p.id)).size).toBe(dashboard.panels.length);
    for (const p of dashboard.panels) {
      expect(p.targets.length).toBeGreaterThan(0);
      for (const t of p.targets) expect([p.title, metricsOf(t.expr).filter((m) => !known(m))]).toEqual([p.title, []]);
    }
  });

  it("lists files that exist, and labels the dashboard's ConfigMap for Grafana's sidecar", () => {
    const k = parse(readFileSync(join(MONITORING, 'kustomization.yaml'), 'utf8')) as {
      namespace: string;
      resources: string[];
      configMapGenerator: Array<{ files: string[]; options: { labels: Record<string, string> } }>;
    };
    expect(k.namespace).toBe('conversa');
    for (const f of [...k.resources, ...k.configMapGenerator.flatMap((g) => g.files)])
      expect(statSync(join(MONITORING, f)).isFile()).toBe(true);
    expect(k.configMapGenerator[0]?.options.labels).toEqual({ grafana_dashboard: '1' });
  });
});
