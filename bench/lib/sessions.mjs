// Helpers of the benchmarks that run whatsapp-sessions alone (bench/sessions, bench/sessions-memory).
import { connect } from 'nats';

/**
 * The streams whatsapp-sessions reads but others declare (TICKETS: queue and prompt ids; AUTH: companies; CAMPAIGNS:
 * campaign sends), as their owners declare them at their start, each with its owner's user: with per-service users
 * a reader waits for them at boot, and those services do not run here.
 */
export async function declareOthersStreams(natsUrl, natsPasswords) {
  const { Streams } = await import('../../libs/contracts/dist/index.js');
  for (const [owner, stream] of [
    ['tickets', Streams.TICKETS],
    ['auth', Streams.AUTH],
    ['campaigns', Streams.CAMPAIGNS],
  ]) {
    const nc = await connect({ servers: natsUrl, user: owner, pass: natsPasswords[owner], inboxPrefix: `_INBOX.${owner}` });
    try {
      const jsm = await nc.jetstreamManager();
      if (!(await jsm.streams.info(stream.name).catch(() => null)))
        await jsm.streams.add({ name: stream.name, subjects: [...stream.subjects] });
    } finally {
      await nc.close();
    }
  }
}
