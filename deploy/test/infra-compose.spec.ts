// The servers for a machine without them (issue 45 §8): deploy/infra.compose.yml, and scripts/infra.mjs starting it
// when Docker answers. Docker cannot run here, so the `docker` the script finds is a stand-in on PATH that records
// what it was asked and answers as Docker would (its daemon up or down); the servers themselves are the machine's.
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const COMPOSE = join(ROOT, 'deploy', 'infra.compose.yml');

interface ComposeService {
  image: string;
  command?: string[];
  environment?: Record<string, string>;
  ports: string[];
  volumes: string[];
  healthcheck: { test: string[] };
}
const compose = parse(readFileSync(COMPOSE, 'utf8')) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> };

/** Runs scripts/infra.mjs with a stand-in `docker` first on PATH; answers its output and what `docker` was asked. */
function infraWithDocker(daemonUp: boolean, env: Record<string, string>): { code: number | null; out: string; calls: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'fake-docker-'));
  const log = join(dir, 'calls.log');
  writeFileSync(
    join(dir, 'docker'),
    `#!/bin/sh\necho "$*" >> ${JSON.stringify(log)}\n` +
      (daemonUp ? 'exit 0\n' : 'case "$1" in info) echo "Cannot connect to the Docker daemon" >&2; exit 1;; esac\nexit 0\n'),
  );
  chmodSync(join(dir, 'docker'), 0o755);
  writeFileSync(log, '');
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'infra.mjs')], {
    encoding: 'utf8',
    env: { ...process.env, PATH: `${dir}:${process.env.PATH ?? ''}`, ...env },
    timeout: 60_000,
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}`, calls: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

describe('deploy/infra.compose.yml', () => {
  it('runs PostgreSQL, Redis with its append-only file and NATS with JetStream, on loopback ports, data in volumes, each with a health check', () => {
    const { postgres, redis, nats } = compose.services as Record<string, ComposeService>;
    expect(Object.keys(compose.services).sort()).toEqual(['nats', 'postgres', 'redis']);
    expect(postgres?.ports).toEqual(['127.0.0.1:5432:5432']);
    expect(redis?.ports).toEqual(['127.0.0.1:6379:6379']);
    expect(nats?.ports).toEqual(['127.0.0.1:4222:4222']);
    // the default DATABASE_URL's password (scripts/infra.mjs, .env.example)
    expect(postgres?.environment?.POSTGRES_PASSWORD).toBe('postgres');
    expect(redis?.command?.join(' ')).toMatch(/--appendonly yes/);
    expect(redis?.command?.join(' ')).toMatch(/--maxmemory-policy noeviction/);
    expect(nats?.command).toEqual(expect.arrayContaining(['-js', '-sd', '/data']));
    for (const [name, s] of Object.entries(compose.services)) {
      expect([name, s.healthcheck.test[0]]).toEqual([name, 'CMD']);
      expect([name, s.volumes.length]).toEqual([name, 1]);
      expect(Object.keys(compose.volumes)).toContain(s.volumes[0]?.split(':')[0]);
    }
  });
});

describe('scripts/infra.mjs and Docker', () => {
  it('starts the three from the compose file when Docker answers (INFRA_DOCKER=1), then checks them as on any machine', () => {
    const r = infraWithDocker(true, { INFRA_DOCKER: '1' });
    expect(r.calls).toContain(`compose -f ${COMPOSE} up -d --wait`);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/postgres ok.*redis ok.*nats\+jetstream ok.*\(in Docker: deploy\/infra\.compose\.yml\)/);
  });

  it('goes the usual way, saying why, when Docker is there but its daemon does not answer', () => {
    const r = infraWithDocker(false, { INFRA_DOCKER: '1' });
    expect(r.calls.some((c) => c.startsWith('compose'))).toBe(false);
    expect(r.out).toContain('Docker does not answer');
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('in Docker');
  });

  it('never asks Docker with INFRA_DOCKER=0, nor while the servers here answer', () => {
    expect(infraWithDocker(true, { INFRA_DOCKER: '0' }).calls).toEqual([]);
    const usual = infraWithDocker(true, {});
    expect(usual.calls).toEqual([]);
    expect(usual.code).toBe(0);
  });
});
