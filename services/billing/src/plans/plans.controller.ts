import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public, SuperOnly } from '@wa/auth';
import type { PublicPlanDto } from '@wa/contracts';
import { CreatePlanDto, UpdatePlanDto } from './plans.dto.js';
import { PlansService } from './plans.service.js';

/** Plans (spec 02 settings tab Planos): the public list of the sign-up, and their management by super users. */
@ApiTags('plans')
@Controller('plans')
export class PlansController {
  constructor(private readonly plans: PlansService) {}

  /** spec 01 §7: the public plans list, called without cookies by the sign-up page. */
  @Public()
  @Get('list')
  @ApiResponse({
    status: 200,
    description:
      'the public plans (for sign-up): [{ id, name, users, connections, queues, value, useCampaigns, useExternalApi, useKanban, …, isPublic, trialDays }]',
  })
  list(): Promise<PublicPlanDto[]> {
    return this.plans.listPublic();
  }

  /** Every plan, by name (there are few: the platform's offer). */
  @SuperOnly()
  @Get('all')
  @ApiResponse({
    status: 200,
    description:
      'every plan: [{ id, name, users, connections, queues, value, useCampaigns, useExternalApi, useKanban, …, isPublic, trialDays }]',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: super users only' })
  all(): Promise<PublicPlanDto[]> {
    return this.plans.all();
  }

  @SuperOnly()
  @Get(':id')
  @ApiResponse({
    status: 200,
    description:
      'the plan: { id, name, users, connections, queues, value, useCampaigns, useExternalApi, useKanban, …, isPublic, trialDays }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: super users only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_PLAN_FOUND' })
  get(@Param('id', ParseIntPipe) id: number): Promise<PublicPlanDto> {
    return this.plans.get(id);
  }

  @SuperOnly()
  @Post()
  @ApiResponse({
    status: 201,
    description:
      'the plan created: { id, name, users, connections, queues, value, useCampaigns, useExternalApi, useKanban, …, isPublic, trialDays }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: super users only' })
  @ApiResponse({ status: 409, description: 'ERR_PLAN_NAME_EXISTS' })
  create(@Body() body: CreatePlanDto): Promise<PublicPlanDto> {
    return this.plans.create(body);
  }

  @SuperOnly()
  @Put(':id')
  @ApiResponse({
    status: 200,
    description:
      'the plan as it is now: { id, name, users, connections, queues, value, useCampaigns, useExternalApi, useKanban, …, isPublic, trialDays }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: super users only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_PLAN_FOUND' })
  @ApiResponse({ status: 409, description: 'ERR_PLAN_NAME_EXISTS' })
  update(@Param('id', ParseIntPipe) id: number, @Body() body: UpdatePlanDto): Promise<PublicPlanDto> {
    return this.plans.update(id, body);
  }

  @SuperOnly()
  @Delete(':id')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "{ message: 'Plan deleted' }" })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: super users only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_PLAN_FOUND' })
  @ApiResponse({ status: 409, description: 'ERR_PLAN_IN_USE: companies are on it' })
  async remove(@Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.plans.remove(id);
    return { message: 'Plan deleted' };
  }
}
