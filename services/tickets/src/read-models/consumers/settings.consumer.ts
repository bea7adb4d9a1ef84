import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Streams, type CompanySchedulesUpdatedEvent, type SettingUpdatedEvent } from '@wa/contracts';
import { EventBus, type ConsumerHandle } from '@wa/event-bus';
import { DataSource } from 'typeorm';
import { COMPANY_SCHEDULES_KEY } from '../read-models.repository.js';
import { SettingsMemo } from '../settings-memo.js';
import { UPSERT_COMPANY_SETTINGS } from './settings.queries.js';

/**
 * Keeps tickets' copy of the company settings it acts on (sendGreetingAccepted, CheckMsgIsGroup…) in step with auth;
 * a value remembered here (SettingsMemo) is forgotten once its change is in the copy.
 */
@Injectable()
export class SettingsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private handle: ConsumerHandle | undefined;
  private hours: ConsumerHandle | undefined;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly bus: EventBus,
    private readonly memo: SettingsMemo,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.handle = await this.bus.consume<SettingUpdatedEvent>({
      stream: Streams.AUTH.name,
      durable: 'tickets-settings',
      filterSubjects: ['company.setting.updated.>'],
      concurrency: 2,
      handler: async (batch) => {
        for (const { data } of batch) await this.keep(data.companyId, data.key, data.value);
      },
    });
    // the company's working hours (the settings' Horarios tab), kept beside its settings
    this.hours = await this.bus.consume<CompanySchedulesUpdatedEvent>({
      stream: Streams.AUTH.name,
      durable: 'tickets-company-schedules',
      filterSubjects: ['company.schedules.updated.>'],
      concurrency: 1,
      handler: async (batch) => {
        for (const { data } of batch) await this.keep(data.companyId, COMPANY_SCHEDULES_KEY, JSON.stringify(data.schedules ?? []));
      },
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.handle?.stop(), this.hours?.stop()]);
  }

  private async keep(companyId: number, key: string, value: string): Promise<void> {
    await this.db.query(UPSERT_COMPANY_SETTINGS, [companyId, key, value]);
    // what this process remembered of it is stale now (SettingsMemo)
    this.memo.forget(companyId, key);
  }
}
