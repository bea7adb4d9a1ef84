import { describeServiceBasics } from '@wa/testing';
import { deployment, dropDurable, startReplica } from './harness.js';

describeServiceBasics({
  name: 'realtime-gateway',
  checks: ['redis', 'nats'],
  start: async () => {
    // a durable and adapter key of its own: never the `realtime` consumer of a gateway running beside the tests
    const settings = deployment();
    const replica = await startReplica(settings);
    return {
      ...replica,
      close: async () => {
        try {
          await dropDurable(replica.bus, settings.REALTIME_DURABLE);
        } finally {
          await replica.close();
        }
      },
    };
  },
});
