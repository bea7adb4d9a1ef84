import type { DynamicModule } from '@nestjs/common';
import { runMigrations, type ServiceDatabaseOptions } from '@wa/database';
import { createServiceApp, loadConfig, type BaseEnv } from '@wa/server-kit';
import { listen, type RunningApp } from './boot.js';
import { testEnv } from './env.js';

export interface StartInProcess<E extends BaseEnv> {
  envClass: new () => E;
  module: (env: E) => DynamicModule;
  database?: (env: E) => ServiceDatabaseOptions;
  overrides?: Record<string, string>;
}

/** Migrates (when the service has tables) and boots a service in this process on a free port. */
export async function startInProcess<E extends BaseEnv>(opts: StartInProcess<E>): Promise<RunningApp & { env: E }> {
  const env = loadConfig(opts.envClass, testEnv(opts.overrides));
  if (opts.database) await runMigrations(opts.database(env));
  const app = await createServiceApp(opts.module(env) as never, { env, openApiTitle: 'test' });
  return { ...(await listen(app)), env };
}
