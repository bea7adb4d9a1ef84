import { Controller, Get, Query } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminOrSupervisor } from '@wa/auth';
import type { DashboardAnswer, DashboardChart } from '@wa/contracts';
import type { Caller } from '../identity/caller.service.js';
import { CurrentCaller } from '../identity/current-caller.js';
import { DashboardChartQueryDto, DashboardQueryDto } from './dashboard.dto.js';
import { DashboardService } from './dashboard.service.js';

/** spec 01 §2 "Dashboard (/)": admins only. */
@ApiTags('dashboard')
@AdminOrSupervisor()
@Controller('dashboard')
export class DashboardController {
  constructor(private readonly dashboard: DashboardService) {}

  @Get()
  @ApiResponse({
    status: 200,
    description:
      'the dashboard of the period: { counters: { supportHappening, supportPending, supportFinished, avgSupportTime, avgWaitTime, … }, attendants: [{ id, name, rating, avgSupportTime, tickets, online }], period: { from, to, timeZone } }',
  })
  async get(@CurrentCaller() caller: Caller, @Query() q: DashboardQueryDto): Promise<DashboardAnswer> {
    return this.dashboard.dashboard(caller, q);
  }

  @Get('ticketsUsers')
  @ApiResponse({ status: 200, description: 'tickets per user in the period, for the chart: { data: [ … ], count }' })
  async ticketsUsers(@CurrentCaller() caller: Caller, @Query() q: DashboardChartQueryDto): Promise<DashboardChart> {
    return this.dashboard.ticketsUsers(caller, q);
  }

  @Get('ticketsDay')
  @ApiResponse({ status: 200, description: 'tickets per day (or hour) in the period, for the chart: { data: [ … ], count }' })
  async ticketsDay(@CurrentCaller() caller: Caller, @Query() q: DashboardChartQueryDto): Promise<DashboardChart> {
    return this.dashboard.ticketsDay(caller, q);
  }
}
