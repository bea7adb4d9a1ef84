import { Injectable, Logger } from '@nestjs/common';
import { SocketChannels, type PaymentEvent } from '@wa/contracts';
import type { BusMessage } from '@wa/event-bus';
import { Rooms } from '../../realtime/rooms.js';
import { isId, subjectCompany, type Emission } from '../emission.js';

/** auth's `company.payment.confirmed.<companyId>` (four tokens: the companies' list filter `company.*.*` never takes it) */
export const PAYMENTS_FILTER = 'company.payment.>';
const COMPANY_INDEX = 3;

/**
 * A payment confirmed and the renewal applied (auth, on billing's `invoice.paid`) → `company-<id>-payment` to
 * that company's sockets only (spec 02 §4: CONCLUIDA shows the renewal message and goes to / after 4 s).
 */
@Injectable()
export class PaymentsConsumer {
  private readonly log = new Logger(PaymentsConsumer.name);

  emissions(msg: BusMessage<unknown>): Emission[] {
    const e = msg.data as PaymentEvent | null | undefined;
    const companyId = msg.subject.startsWith('company.payment.confirmed.') ? subjectCompany(msg.subject, COMPANY_INDEX) : null;
    if (companyId === null || e?.action !== 'CONCLUIDA' || !isId(e.invoiceId) || e.company?.id !== companyId) {
      this.log.warn({ subject: msg.subject, seq: msg.streamSeq }, 'event not fanned out: bad payment event');
      return [];
    }
    return [{ rooms: [Rooms.company(companyId)], channel: SocketChannels.payment(companyId), payload: e }];
  }
}
