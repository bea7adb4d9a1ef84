import { Module } from '@nestjs/common';
import { ConversationModule } from '../conversation/conversation.module.js';
import { AutomationFacade } from './automation.facade.js';
import { BotService } from './bot/bot.service.js';
import { DialogflowAgent } from './bot/dialogflow-agent.js';
import { IntegrationAgent } from './bot/integration-agent.js';
import { PromptAgent } from './bot/prompt-agent.js';
import { TicketExpiry } from './bot/ticket-expiry.js';
import { PromptsController } from './prompts/prompts.controller.js';
import { PromptsService } from './prompts/prompts.service.js';
import { QueueIntegrationsController } from './queue-integrations/queue-integrations.controller.js';
import { QueueIntegrationsService } from './queue-integrations/queue-integrations.service.js';
import { QueueOptionsController } from './queue-options/queue-options.controller.js';
import { QueueOptionsService } from './queue-options/queue-options.service.js';

/**
 * Who answers a customer before an agent does: the bot (menus, ratings, out-of-hours texts), the queues' options,
 * AI prompts and outside flows (integrations), and the clock's part (transfer and expiry of idle tickets). It
 * sends through conversation's ConversationSender; the inbound lane reaches it through AutomationFacade alone.
 */
@Module({
  imports: [ConversationModule],
  controllers: [QueueOptionsController, PromptsController, QueueIntegrationsController],
  providers: [
    AutomationFacade,
    BotService,
    PromptAgent,
    IntegrationAgent,
    DialogflowAgent,
    TicketExpiry,
    QueueOptionsService,
    PromptsService,
    QueueIntegrationsService,
  ],
  exports: [AutomationFacade],
})
export class AutomationModule {}
