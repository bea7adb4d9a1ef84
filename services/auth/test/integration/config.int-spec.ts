import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testEnv } from '@wa/testing';

const main = join(dirname(fileURLToPath(import.meta.url)), '../../dist/main.js');

function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [main], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('configuration', () => {
  it('exits non-zero naming JWT_SECRET when it is missing', async () => {
    const { JWT_SECRET: _omit, ...env } = testEnv();
    const res = await start(env);
    expect(res.code).not.toBe(0);
    expect(res.code).not.toBeNull();
    expect(res.stderr).toContain('JWT_SECRET');
  });

  it('exits non-zero naming a variable with a bad value', async () => {
    const res = await start(testEnv({ PORT: 'eighty', DATABASE_URL: 'mysql://nope' }));
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('PORT');
    expect(res.stderr).toContain('DATABASE_URL');
  });

  it('in production, refuses to start on the example placeholder secret or a short one, naming the variable', async () => {
    const placeholder = await start(testEnv({ NODE_ENV: 'production', JWT_SECRET: 'change-me-access-token-secret-0123456789' }));
    expect(placeholder.code).toBe(78);
    expect(placeholder.stderr).toContain('JWT_SECRET is a placeholder value');
    const short = await start(testEnv({ NODE_ENV: 'production', JWT_SECRET: 'only-twenty-bytes-xx' }));
    expect(short.code).toBe(78);
    expect(short.stderr).toContain('JWT_SECRET is shorter than 32 bytes');
    const url = await start(
      testEnv({
        NODE_ENV: 'production',
        JWT_SECRET: 'x'.repeat(16) + 'Yz0-long-enough-for-prod',
        DATABASE_URL: 'postgres://conversa:change-me-postgres-password@127.0.0.1:5432/wa_test',
      }),
    );
    expect(url.code).toBe(78);
    expect(url.stderr).toContain('DATABASE_URL carries a placeholder password');
  });
});
