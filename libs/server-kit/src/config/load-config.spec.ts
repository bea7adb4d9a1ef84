import { describe, expect, it } from '@jest/globals';
import { IsString } from 'class-validator';
import { InfraEnv } from './base.env.js';
import { ConfigError, loadConfig } from './load-config.js';
import { Secret } from './secrets.js';

class AppEnv extends InfraEnv {
  /** optional: checked only when set */
  @Secret()
  @IsString()
  WEBHOOK_SIGNING_KEY: string = '';
}

const strong = 'q7Vh2m9XbL0sN4pR8tY1wZ3cF6gJ5kD2aE9uI0oP';
const natsPassword = 'n0f3a9c1d2e7b4a6c8d0e1f2a3b4c5d6e7f8';
const prod = (env: Record<string, string>) =>
  loadConfig(AppEnv, {
    NODE_ENV: 'production',
    DATABASE_URL: `postgres://conversa:${strong}@db:5432/conversa`,
    NATS_USER: 'tickets',
    NATS_PASSWORD: natsPassword,
    ...env,
  });

function problemsOf(fn: () => unknown): { variables: string[]; problems: string[] } {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return { variables: err.variables, problems: err.problems };
    throw err;
  }
  throw new Error('expected a configuration error');
}

describe('secrets in production', () => {
  it('starts with a long secret of its own', () => {
    expect(prod({ JWT_SECRET: strong }).JWT_SECRET).toBe(strong);
  });

  it('refuses the example placeholder and anything containing change-me, naming the variable', () => {
    for (const value of ['change-me-access-token-secret-0123456789', 'xxxxxxxxxxxxxxxxxxxxCHANGE-ME-xxxxxxxxxxxxxxxx']) {
      const { variables, problems } = problemsOf(() => prod({ JWT_SECRET: value }));
      expect(variables).toEqual(['JWT_SECRET']);
      expect(problems[0]).toContain('placeholder');
    }
  });

  it('refuses a secret shorter than 32 bytes', () => {
    const { variables, problems } = problemsOf(() => prod({ JWT_SECRET: 'a-secret-of-31-bytes-0123456789' }));
    expect(variables).toEqual(['JWT_SECRET']);
    expect(problems[0]).toBe('JWT_SECRET is shorter than 32 bytes');
    expect(prod({ JWT_SECRET: 'a-secret-of-32-bytes-01234567890' }).JWT_SECRET).toHaveLength(32);
  });

  it('checks an optional secret only when it is set, and every secret of the class chain', () => {
    expect(prod({ JWT_SECRET: strong }).WEBHOOK_SIGNING_KEY).toBe('');
    const { variables } = problemsOf(() => prod({ JWT_SECRET: 'short-but-valid-16', WEBHOOK_SIGNING_KEY: 'change-me' }));
    expect(variables.sort()).toEqual(['JWT_SECRET', 'WEBHOOK_SIGNING_KEY']);
  });

  it('refuses a placeholder password inside a URL', () => {
    const { variables } = problemsOf(() =>
      prod({ JWT_SECRET: strong, DATABASE_URL: 'postgres://conversa:change-me-postgres-password@postgres:5432/conversa' }),
    );
    expect(variables).toEqual(['DATABASE_URL']);
  });

  it('requires a NATS user and password in production, in a form nats-server reads back unchanged', () => {
    expect(prod({ JWT_SECRET: strong })).toMatchObject({ NATS_USER: 'tickets', NATS_PASSWORD: natsPassword });
    expect(problemsOf(() => prod({ JWT_SECRET: strong, NATS_USER: '', NATS_PASSWORD: '' })).problems).toEqual([
      'NATS_PASSWORD is required in production',
    ]);
    expect(problemsOf(() => prod({ JWT_SECRET: strong, NATS_USER: '' })).variables).toEqual(['NATS_USER']);
    for (const bad of [
      '3e7fab0123456789abcdef0123456789abcdef',
      'nA+b/c=0123456789abcdef0123456789abcdef',
      'n0123456789abcdef 0123456789abcdef0123',
    ]) {
      expect(problemsOf(() => prod({ JWT_SECRET: strong, NATS_PASSWORD: bad })).variables).toEqual(['NATS_PASSWORD']);
    }
    expect(problemsOf(() => prod({ JWT_SECRET: strong, NATS_PASSWORD: 'n0123' })).problems).toEqual([
      'NATS_PASSWORD is shorter than 32 bytes',
    ]);
  });

  it('lets development and tests run with short local secrets', () => {
    expect(loadConfig(AppEnv, { NODE_ENV: 'development', JWT_SECRET: 'change-me-local-0123' }).JWT_SECRET).toBe('change-me-local-0123');
    expect(loadConfig(AppEnv, { NODE_ENV: 'test', JWT_SECRET: 'sixteen-chars-ok' }).NODE_ENV).toBe('test');
  });
});
