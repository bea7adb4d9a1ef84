import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminOrSupervisor, CurrentUser } from '@wa/auth';
import type { AccessTokenClaims, DashboardAnswer, DashboardChart } from '@wa/contracts';
import { CallerService } from '../identity/caller.service.js';
import { DashboardChartQueryDto, DashboardQueryDto } from './dashboard.dto.js';
import { DashboardService } from './dashboard.service.js';

/** spec 01 §2 "Dashboard (/)": admins only. */
@ApiTags('dashboard')
@AdminOrSupervisor()
@Controller('dashboard')
export class DashboardController {
  constructor(
    private readonly dashboard: DashboardService,
    private readonly callers: CallerService,
  ) {}

  @Get()
  async get(@CurrentUser() claims: AccessTokenClaims, @Query() q: DashboardQueryDto): Promise<DashboardAnswer> {
    return this.dashboard.dashboard(await this.callers.of(claims), q);
  }

  @Get('ticketsUsers')
  async ticketsUsers(@CurrentUser() claims: AccessTokenClaims, @Query() q: DashboardChartQueryDto): Promise<DashboardChart> {
    return this.dashboard.ticketsUsers(await this.callers.of(claims), q);
  }

  @Get('ticketsDay')
  async ticketsDay(@CurrentUser() claims: AccessTokenClaims, @Query() q: DashboardChartQueryDto): Promise<DashboardChart> {
    return this.dashboard.ticketsDay(await this.callers.of(claims), q);
  }
}
