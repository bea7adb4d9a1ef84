import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { ConversationModule } from '../conversation/conversation.module.js';
import { ScheduleJobs, SCHEDULES_QUEUE } from './jobs/schedule-jobs.js';
import { SendScheduleJob } from './jobs/send-schedule.job.js';
import { ScheduleSender } from './schedule-sender.js';
import { SchedulesController } from './schedules.controller.js';
import { SchedulesService } from './schedules.service.js';

/** Messages scheduled for later (spec 01 §3 "Schedule"): kept, timed by BullMQ, sent through the conversation's sender. */
@Module({
  imports: [ConversationModule, BullModule.registerQueue({ name: SCHEDULES_QUEUE })],
  controllers: [SchedulesController],
  providers: [ScheduleJobs, ScheduleSender, SchedulesService, SendScheduleJob],
})
export class SchedulingModule {}
