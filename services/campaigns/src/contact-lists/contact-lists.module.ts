import { Module } from '@nestjs/common';
import { ContactListImport } from './contact-list-import.service.js';
import { ContactListItemsController } from './contact-list-items.controller.js';
import { ContactListItemsService } from './contact-list-items.service.js';
import { ContactListsController } from './contact-lists.controller.js';
import { ContactListsRepository } from './contact-lists.repository.js';
import { ContactListsService } from './contact-lists.service.js';
import { NumberCheckWorker } from './number-check.worker.js';

/**
 * Contact lists and their items (spec 02 §2, §3, §5, §7), their spreadsheet imports, and the background check of
 * their numbers on WhatsApp. Exports the repository (a campaign's audience is read from a list's items).
 */
@Module({
  controllers: [ContactListsController, ContactListItemsController],
  providers: [ContactListsRepository, ContactListsService, ContactListItemsService, ContactListImport, NumberCheckWorker],
  exports: [ContactListsRepository, NumberCheckWorker],
})
export class ContactListsModule {}
