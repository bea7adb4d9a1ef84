import { describeServiceBasics, startInProcess } from '@wa/testing';
import { AppModule } from '../../src/app.module.js';
import { CampaignsEnv } from '../../src/config/env.js';
import { campaignsDatabase } from '../../src/database/data-source.js';

describeServiceBasics({
  name: 'campaigns',
  checks: ['postgres', 'redis', 'nats'],
  start: () =>
    startInProcess({
      envClass: CampaignsEnv,
      module: (env) => AppModule.register(env),
      database: (env) => campaignsDatabase(env.DATABASE_URL),
    }),
});
