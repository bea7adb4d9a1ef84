import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '@wa/auth';
import type { PublicPlanDto } from '@wa/contracts';
import { PlansService } from './plans.service.js';

@ApiTags('plans')
@Controller('plans')
export class PlansController {
  constructor(private readonly plans: PlansService) {}

  /** spec 01 §7: the public plans list, called without cookies by the sign-up page. */
  @Public()
  @Get('list')
  list(): Promise<PublicPlanDto[]> {
    return this.plans.listPublic();
  }
}
