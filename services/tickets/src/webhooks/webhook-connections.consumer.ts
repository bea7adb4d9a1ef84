import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Streams, type ConnectionSessionEvent } from '@wa/contracts';
import { EventBus, type BusMessage, type ConsumerHandle } from '@wa/event-bus';
import type { DataSource } from 'typeorm';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhookRecorder } from './webhook-recorder.js';

/** A session event older than this is not told (a first start of this consumer reads the stream from its start). */
export const STALE_SESSION_EVENT_MS = 15 * 60_000;

/**
 * The webhook's `connection.status` and `connection.qrcode` (issue 45 §3): whatsapp-sessions' `connection.session`
 * events (CONNECTIONS stream, published through its outbox) made deliveries, only for companies whose webhook listens
 * for them (WebhookRecorder.recordSession), one connection's in order. A delivery exists once its event is acked; a
 * redelivery makes none twice (the last status told, the QR code's key).
 */
@Injectable()
export class WebhookConnectionsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger(WebhookConnectionsConsumer.name);
  private handle: ConsumerHandle | undefined;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly bus: EventBus,
    private readonly recorder: WebhookRecorder,
    private readonly dispatcher: WebhookDispatcher,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.handle = await this.bus.consume<ConnectionSessionEvent>({
      stream: Streams.CONNECTIONS.name,
      durable: 'tickets-webhook-connections',
      filterSubjects: ['connection.session.>'],
      // one connection's events in order (its statuses are told as they came)
      orderKey: (subject) => subject.split('.').slice(2).join('.'),
      concurrency: 4,
      handler: (batch) => this.apply(batch),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.handle?.stop();
  }

  private async apply(batch: BusMessage<ConnectionSessionEvent>[]): Promise<void> {
    let written = 0;
    for (const m of batch) {
      const e = m.data;
      if (!e || !Number.isSafeInteger(e.companyId) || !Number.isSafeInteger(e.connectionId) || typeof e.status !== 'string') continue;
      if (!this.recorder.companyWants(e.companyId, ['connection.status', 'connection.qrcode'])) continue;
      const at = Date.parse(e.session?.updatedAt ?? '');
      if (Number.isFinite(at) && Date.now() - at > STALE_SESSION_EVENT_MS) continue;
      written += await this.db.transaction((tx) => this.recorder.recordSession(tx, e));
    }
    if (written > 0) {
      this.log.debug({ written }, 'webhook: connection deliveries recorded');
      this.dispatcher.kick();
    }
  }
}
