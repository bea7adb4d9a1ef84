import { describeServiceBasics, startInProcess } from '@wa/testing';
import { AppModule } from '../../src/app.module.js';
import { RealtimeEnv } from '../../src/config/env.js';

describeServiceBasics({
  name: 'realtime-gateway',
  checks: ['redis', 'nats'],
  start: () =>
    startInProcess({
      envClass: RealtimeEnv,
      module: (env) => AppModule.register(env),
    }),
});
