import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
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
  async get(@CurrentCaller() caller: Caller, @Query() q: DashboardQueryDto): Promise<DashboardAnswer> {
    return this.dashboard.dashboard(caller, q);
  }

  @Get('ticketsUsers')
  async ticketsUsers(@CurrentCaller() caller: Caller, @Query() q: DashboardChartQueryDto): Promise<DashboardChart> {
    return this.dashboard.ticketsUsers(caller, q);
  }

  @Get('ticketsDay')
  async ticketsDay(@CurrentCaller() caller: Caller, @Query() q: DashboardChartQueryDto): Promise<DashboardChart> {
    return this.dashboard.ticketsDay(caller, q);
  }
}
