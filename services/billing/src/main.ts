import 'reflect-metadata';
import { loadConfigOrExit, startService } from '@wa/server-kit';
import { AppModule, SERVICE } from './app.module.js';
import { BillingEnv } from './config/env.js';

const env = loadConfigOrExit(BillingEnv, SERVICE);
await startService(AppModule.register(env) as never, { env, service: SERVICE });
