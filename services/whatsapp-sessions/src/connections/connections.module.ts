import { Module } from '@nestjs/common';
import { RuntimeModule } from '../runtime/runtime.module.js';
import { ApiTokensController } from './api-tokens.controller.js';
import { CompanyRefs } from './company-refs.js';
import { CompanyRefsRepository } from './company-refs.repository.js';
import { ConnectionTokens } from './connection-tokens.js';
import { ConnectionTokensRepository } from './connection-tokens.repository.js';
import { ConnectionsController } from './connections.controller.js';
import { ConnectionsRepository } from './connections.repository.js';
import { ConnectionsService } from './connections.service.js';
import { DeletedCompaniesConsumer } from './deleted-companies.consumer.js';
import { DeletedCompaniesRepository } from './deleted-companies.repository.js';
import { NewCompaniesConsumer } from './new-companies.consumer.js';

/**
 * The connections (`/whatsapp`): their rules, API tokens, the queue and prompt ids they may name, and what a
 * company's creation or deletion does to them. Starts and ends their sessions through the runtime's façade.
 * Exports the company-scoped repository (the sessions' routes find a connection by it).
 */
@Module({
  imports: [RuntimeModule],
  controllers: [ConnectionsController, ApiTokensController],
  providers: [
    ConnectionsRepository,
    ConnectionsService,
    ConnectionTokensRepository,
    ConnectionTokens,
    CompanyRefsRepository,
    CompanyRefs,
    NewCompaniesConsumer,
    DeletedCompaniesRepository,
    DeletedCompaniesConsumer,
  ],
  exports: [ConnectionsRepository],
})
export class ConnectionsModule {}
