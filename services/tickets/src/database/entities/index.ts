import { ContactEntity } from './contact.entity.js';
import { MessageEntity } from './message.entity.js';
import { QueueEntity } from './queue.entity.js';
import { QueueOptionEntity } from './queue-option.entity.js';
import { BOT_DEFAULTS, CompanySettingEntity, ConnectionEntity, type ConnectionBot } from './read-models.entity.js';
import { QuickMessageEntity } from './quick-message.entity.js';
import { TicketNoteEntity } from './ticket-note.entity.js';
import { TicketEntity, type BotState } from './ticket.entity.js';
import { TagEntity } from './tag.entity.js';
import { ScheduleEntity } from './schedule.entity.js';
import { PromptEntity } from './prompt.entity.js';
import { QueueIntegrationEntity } from './queue-integration.entity.js';

export {
  BOT_DEFAULTS,
  type BotState,
  type ConnectionBot,
  PromptEntity,
  QueueIntegrationEntity,
  QueueOptionEntity,
  ScheduleEntity,
  TagEntity,
  CompanySettingEntity,
  ConnectionEntity,
  ContactEntity,
  MessageEntity,
  QueueEntity,
  QuickMessageEntity,
  TicketEntity,
  TicketNoteEntity,
};
export const entities = [
  QueueEntity,
  QueueOptionEntity,
  ContactEntity,
  TicketEntity,
  MessageEntity,
  ConnectionEntity,
  CompanySettingEntity,
  TicketNoteEntity,
  QuickMessageEntity,
  TagEntity,
  ScheduleEntity,
  PromptEntity,
  QueueIntegrationEntity,
];
export { messageOfRow } from './message.entity.js';
