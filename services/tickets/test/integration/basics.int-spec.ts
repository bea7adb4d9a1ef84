import { describeServiceBasics, startInProcess } from '@wa/testing';
import { AppModule } from '../../src/app.module.js';
import { TicketsEnv } from '../../src/config/env.js';
import { ticketsDatabase } from '../../src/database/data-source.js';

describeServiceBasics({
  name: 'tickets',
  checks: ['postgres', 'redis', 'nats'],
  start: () =>
    startInProcess({
      envClass: TicketsEnv,
      module: (env) => AppModule.register(env),
      database: (env) => ticketsDatabase(env.DATABASE_URL),
    }),
});
