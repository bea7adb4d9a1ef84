import { Module } from '@nestjs/common';
import { RecordsModule } from '../records/records.module.js';
import { CampaignLifecycle } from './campaign-lifecycle.js';

/** Sending campaigns: the start (freezing the audience), the leased pacer per connection, acks, confirmations, opt-outs. */
@Module({ imports: [RecordsModule], providers: [CampaignLifecycle], exports: [CampaignLifecycle] })
export class DispatchModule {}
