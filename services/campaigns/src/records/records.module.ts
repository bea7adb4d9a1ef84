import { Module } from '@nestjs/common';
import { CampaignRecords } from './campaign-records.js';

/** A campaign as its record, its report and its change announced: shared by the campaigns module and the dispatcher. */
@Module({ providers: [CampaignRecords], exports: [CampaignRecords] })
export class RecordsModule {}
