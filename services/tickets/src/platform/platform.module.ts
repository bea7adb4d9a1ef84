import { Global, Module, type DynamicModule } from '@nestjs/common';
import { PlanLimitsClient } from '@wa/auth';
import { MediaStorage, mediaStorageFrom } from '@wa/server-kit';
import { TicketsEnv } from '../config/env.js';
import { CallerService } from '../identity/caller.service.js';
import { CompanyStandings } from '../identity/company-standings.js';
import { CompanyStandingsRepository } from '../identity/company-standings.repository.js';
import { Outbox } from '../outbox/outbox.service.js';
import { CompaniesConsumer } from '../read-models/consumers/companies.consumer.js';
import { ConnectionsConsumer } from '../read-models/consumers/connections.consumer.js';
import { SettingsConsumer } from '../read-models/consumers/settings.consumer.js';
import { StandingsConsumer } from '../read-models/consumers/standings.consumer.js';
import { ReadModels } from '../read-models/read-models.repository.js';
import { SettingsMemo } from '../read-models/settings-memo.js';

/** The name tickets goes by (logs, service tokens, plan checks). */
export const SERVICE = 'tickets';

/**
 * The base every tickets module stands on: its configuration, the media storage, who is asking (identity:
 * callers, company standings), the outbox, and the read models of other services' data (connections, company
 * settings and standings, deletions) with the consumers that keep them. Global: the modules above use it
 * without listing it; it imports none of them.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(env: TicketsEnv): DynamicModule {
    const shared = [
      { provide: TicketsEnv, useValue: env },
      { provide: MediaStorage, useValue: mediaStorageFrom(env) },
      { provide: PlanLimitsClient, useValue: new PlanLimitsClient(env.AUTH_URL, env.JWT_SECRET, SERVICE) },
      CallerService,
      CompanyStandings,
      CompanyStandingsRepository,
      Outbox,
      ReadModels,
      SettingsMemo,
    ];
    return {
      module: PlatformModule,
      providers: [...shared, ConnectionsConsumer, SettingsConsumer, StandingsConsumer, CompaniesConsumer],
      exports: [TicketsEnv, MediaStorage, PlanLimitsClient, CallerService, CompanyStandings, Outbox, ReadModels, SettingsMemo],
    };
  }
}
