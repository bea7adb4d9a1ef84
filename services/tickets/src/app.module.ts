import { WebhookDispatcher } from './webhooks/webhook-dispatcher.js';
import { WebhookRecorder } from './webhooks/webhook-recorder.js';
import { WebhooksController } from './webhooks/webhooks.controller.js';
import { WebhooksService } from './webhooks/webhooks.service.js';
import { ApiMessagesController } from './public-api/api-messages.controller.js';
import { ApiMessagesService } from './public-api/api-messages.service.js';
import { QuickMessagesController } from './quick-messages/quick-messages.controller.js';
import { QuickMessagesService } from './quick-messages/quick-messages.service.js';
import { NotesController } from './notes/notes.controller.js';
import { NotesService } from './notes/notes.service.js';
import { ContactsController } from './contacts/contacts.controller.js';
import { ContactsService } from './contacts/contacts.service.js';
import { ContactsTransfer } from './contacts/contacts-transfer.service.js';
import { WhatsappCheck } from './contacts/whatsapp-check.service.js';
import { PhoneContacts } from './contacts/phone-contacts.service.js';
import { TagsController, TicketTagsController } from './tags/tags.controller.js';
import { TagsService } from './tags/tags.service.js';
import { Module, type DynamicModule } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { ScheduleJobs, SCHEDULES_QUEUE } from './schedules/jobs/schedule-jobs.js';
import { SendScheduleJob } from './schedules/jobs/send-schedule.job.js';
import { ScheduleSender } from './schedules/schedule-sender.js';
import { SchedulesController } from './schedules/schedules.controller.js';
import { SchedulesService } from './schedules/schedules.service.js';
import { DashboardController } from './dashboard/dashboard.controller.js';
import { DashboardService } from './dashboard/dashboard.service.js';
import { AuthLibModule, PlanLimitsClient } from '@wa/auth';
import { MediaStorage, mediaStorageFrom, redisOptionsOf, serviceModules } from '@wa/server-kit';
import { MediaController } from './media/media.controller.js';
import { TicketsEnv } from './config/env.js';
import { ticketsDatabase } from './database/data-source.js';
import { CallerService } from './identity/caller.service.js';
import { WaAckConsumer } from './inbound/consumers/wa-ack.consumer.js';
import { WaInboundConsumer } from './inbound/consumers/wa-inbound.consumer.js';
import { MessagesController } from './messages/messages.controller.js';
import { MessagesService } from './messages/messages.service.js';
import { MessageChanges } from './messages/message-changes.service.js';
import { Outbox } from './outbox/outbox.service.js';
import { QueueOptionsController } from './queue-options/queue-options.controller.js';
import { QueueOptionsService } from './queue-options/queue-options.service.js';
import { QueuesController } from './queues/queues.controller.js';
import { QueuesService } from './queues/queues.service.js';
import { ConnectionsConsumer } from './read-models/consumers/connections.consumer.js';
import { SettingsConsumer } from './read-models/consumers/settings.consumer.js';
import { BotService } from './bot/bot.service.js';
import { PromptAgent } from './bot/prompt-agent.js';
import { DialogflowAgent } from './bot/dialogflow-agent.js';
import { IntegrationAgent } from './bot/integration-agent.js';
import { PromptsController } from './prompts/prompts.controller.js';
import { QueueIntegrationsController } from './queue-integrations/queue-integrations.controller.js';
import { QueueIntegrationsService } from './queue-integrations/queue-integrations.service.js';
import { PromptsService } from './prompts/prompts.service.js';
import { TicketExpiry } from './bot/ticket-expiry.js';
import { CompaniesConsumer } from './read-models/consumers/companies.consumer.js';
import { StandingsConsumer } from './read-models/consumers/standings.consumer.js';
import { CompanyStandings } from './identity/company-standings.js';
import { ReadModels } from './read-models/read-models.repository.js';
import { KanbanController, TicketsController } from './tickets/tickets.controller.js';
import { ChatsController, ChatsService } from './chats/chats.js';
import { FileListsController, FileListsService } from './files/file-lists.js';
import { TicketsRepository } from './tickets/tickets.repository.js';
import { TicketsService } from './tickets/tickets.service.js';

export const SERVICE = 'tickets';

@Module({})
export class AppModule {
  static register(env: TicketsEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [...serviceModules({ service: SERVICE, env, database: ticketsDatabase(env.DATABASE_URL, env.DATABASE_POOL_SIZE) }), AuthLibModule.forRoot({ secret: env.JWT_SECRET }),
        // BullMQ's own connections (its workers block on Redis: no retry limit per request)
        BullModule.forRoot({ connection: { ...redisOptionsOf(env.REDIS_URL), maxRetriesPerRequest: null }, prefix: 'conversa' }),
        BullModule.registerQueue({ name: SCHEDULES_QUEUE }),
      ],
      controllers: [TicketsController, KanbanController, ChatsController, FileListsController, MessagesController, QueuesController, QueueOptionsController, NotesController, QuickMessagesController, ContactsController, TagsController, TicketTagsController, MediaController, SchedulesController, DashboardController, ApiMessagesController, WebhooksController, PromptsController, QueueIntegrationsController],
      providers: [
        ChatsService,
        FileListsService,
        { provide: PlanLimitsClient, useValue: new PlanLimitsClient(env.AUTH_URL, env.JWT_SECRET, SERVICE) },
        ApiMessagesService,
        WebhookRecorder,
        WebhookDispatcher,
        WebhooksService,
        { provide: TicketsEnv, useValue: env },
        { provide: MediaStorage, useValue: mediaStorageFrom(env) },
        CallerService,
        ContactsService,
        TagsService,
        ContactsTransfer,
        WhatsappCheck,
        PhoneContacts,
        NotesService,
        QuickMessagesService,
        Outbox,
        ReadModels,
        TicketsRepository,
        TicketsService,
        MessagesService,
        MessageChanges,
        QueuesService,
        QueueOptionsService,
        WaInboundConsumer,
        WaAckConsumer,
        ConnectionsConsumer,
        SettingsConsumer,
        BotService,
        PromptAgent,
        IntegrationAgent,
        DialogflowAgent,
        PromptsService,
        QueueIntegrationsService,
        TicketExpiry,
        CompaniesConsumer,
        CompanyStandings,
        StandingsConsumer,
        ScheduleJobs,
        ScheduleSender,
        SchedulesService,
        SendScheduleJob,
        DashboardService,
      ],
    };
  }
}
