import 'reflect-metadata';
import { loadConfigOrExit, startApp } from '@wa/server-kit';
import { SERVICE } from './app.module.js';
import { GatewayEnv } from './config/env.js';
import { createGatewayApp } from './gateway-app.js';

const env = loadConfigOrExit(GatewayEnv, SERVICE);
await startApp(await createGatewayApp(env), { env, service: SERVICE });
