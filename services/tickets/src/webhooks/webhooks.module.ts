import { Module } from '@nestjs/common';
import { WebhookConnectionsConsumer } from './webhook-connections.consumer.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhookRecorder } from './webhook-recorder.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';

/**
 * A company's webhook: its settings, the deliveries the outbox's events make (WebhookRecorder, the outbox's tap,
 * written in the events' transaction) and their dispatch. Nothing calls into it: it hooks onto the outbox, and reads
 * whatsapp-sessions' connection events (WebhookConnectionsConsumer: `connection.status`, `connection.qrcode`).
 */
@Module({
  controllers: [WebhooksController],
  providers: [WebhookRecorder, WebhookDispatcher, WebhooksService, WebhookConnectionsConsumer],
})
export class WebhooksModule {}
