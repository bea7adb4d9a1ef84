import { describeServiceBasics, startInProcess } from '@wa/testing';
import { AppModule } from '../../src/app.module.js';
import { BillingEnv } from '../../src/config/env.js';
import { billingDatabase } from '../../src/database/data-source.js';

describeServiceBasics({
  name: 'billing',
  checks: ['postgres', 'redis', 'nats'],
  start: () =>
    startInProcess({
      envClass: BillingEnv,
      module: (env) => AppModule.register(env),
      database: (env) => billingDatabase(env.DATABASE_URL),
    }),
});
