import { describeServiceBasics, startInProcess } from '@wa/testing';
import { AppModule } from '../../src/app.module.js';
import { WhatsappSessionsEnv } from '../../src/config/env.js';
import { whatsappDatabase } from '../../src/database/data-source.js';

describeServiceBasics({
  name: 'whatsapp-sessions',
  checks: ['postgres', 'redis', 'nats'],
  start: () =>
    startInProcess({
      envClass: WhatsappSessionsEnv,
      module: (env) => AppModule.register(env),
      database: (env) => whatsappDatabase(env.DATABASE_URL),
    }),
});
