import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';

/** The test database lives beside the product's (`wa`), so tests never touch demo data. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/wa_test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/1';
export const TEST_NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
export const TEST_JWT_SECRET = 'test-secret-of-at-least-32-characters!!';

/** Environment for a service under test: real servers, the test database, quiet logs. */
export function testEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: TEST_DATABASE_URL,
    REDIS_URL: TEST_REDIS_URL,
    NATS_URL: TEST_NATS_URL,
    JWT_SECRET: TEST_JWT_SECRET,
    // one media directory for every service of a test run (tickets stores what whatsapp-sessions sends)
    MEDIA_DIR: join(tmpdir(), 'conversa-test-media'),
    ...overrides,
  };
}

export function uniqueSuffix(): string {
  return randomUUID().slice(0, 8);
}

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomUUID()}@test.local`;
}

/** A made-up client address, so per-IP limits of one test do not touch another's. */
export function randomIp(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${(b[2] % 250) + 1}`;
}
