import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Streams, type SettingUpdatedEvent } from '@wa/contracts';
import { EventBus, type ConsumerHandle } from '@wa/event-bus';
import { DataSource } from 'typeorm';

/** Keeps tickets' copy of the company settings it acts on (sendGreetingAccepted…) in step with auth. */
@Injectable()
export class SettingsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private handle: ConsumerHandle | undefined;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly bus: EventBus,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.handle = await this.bus.consume<SettingUpdatedEvent>({
      stream: Streams.AUTH.name,
      durable: 'tickets-settings',
      filterSubjects: ['company.setting.updated.>'],
      concurrency: 2,
      handler: async (batch) => {
        for (const { data } of batch) {
          await this.db.query(
            `INSERT INTO tickets.company_settings ("companyId", key, value) VALUES ($1, $2, $3)
             ON CONFLICT ("companyId", key) DO UPDATE SET value = EXCLUDED.value`,
            [data.companyId, data.key, data.value],
          );
        }
      },
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.handle?.stop();
  }
}
