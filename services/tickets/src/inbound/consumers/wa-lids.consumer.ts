import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Streams, WaSubjects, type WaLidMapped } from '@wa/contracts';
import { LID_DIGITS } from '@wa/domain';
import { EventBus, type ConsumerHandle } from '@wa/event-bus';
import { ContactLids } from '../contact-lids.js';

/** Well-formed digits of a phone number, as whatsapp-sessions' LID map keeps them. */
const PN = /^\d{8,20}$/;

/**
 * `wa.lid.*` (whatsapp-sessions' LID map learned which number a LID stands for) → the LID's contact and the number's
 * become one (ContactLids.merge). In order (one at a time): a company's pairs are merged as they were learned.
 */
@Injectable()
export class WaLidsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WaLidsConsumer.name);
  private handle: ConsumerHandle | undefined;

  constructor(
    private readonly bus: EventBus,
    private readonly lids: ContactLids,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.handle = await this.bus.consume<WaLidMapped>({
      stream: Streams.WA.name,
      durable: 'tickets-lids',
      filterSubjects: [WaSubjects.allLidMapped],
      concurrency: 1,
      handler: async (batch) => {
        for (const { data } of batch) {
          if (!Number.isSafeInteger(data?.companyId) || !LID_DIGITS.test(data.lid ?? '') || !PN.test(data.pn ?? '')) {
            this.logger.warn({ data }, 'a malformed LID mapping dropped');
            continue;
          }
          await this.lids.merge(data.companyId, data.lid, data.pn);
        }
      },
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.handle?.stop();
  }
}
