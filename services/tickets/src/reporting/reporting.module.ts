import { Module } from '@nestjs/common';
import { DashboardController } from './dashboard.controller.js';
import { DashboardService } from './dashboard.service.js';

/** The dashboard's figures (spec 01 "Dashboard"), read from tickets' own tables and the user directory. */
@Module({
  controllers: [DashboardController],
  providers: [DashboardService],
})
export class ReportingModule {}
