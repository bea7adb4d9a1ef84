import { Body, Controller, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '@wa/auth';
import { SignupDto } from './signup.dto.js';
import { SignupService } from './signup.service.js';

@ApiTags('session')
@Controller('auth')
export class SignupController {
  constructor(private readonly signups: SignupService) {}

  /** spec 01 §2 /signup: the app shows "Usuário criado com sucesso! Faça seu login" on 201. */
  @Public()
  @Post('signup')
  @ApiResponse({ status: 201, description: 'the company and its first (admin) user created, on a trial: { companyId, userId, dueDate }' })
  @ApiResponse({ status: 403, description: 'ERR_USER_CREATION_DISABLED: sign-up is turned off (setting userCreation)' })
  @ApiResponse({ status: 409, description: 'ERR_EMAIL_ALREADY_EXISTS' })
  @ApiResponse({ status: 429, description: 'ERR_TOO_MANY_ATTEMPTS: too many sign-ups from this address' })
  signup(@Body() body: SignupDto, @Req() req: Request): Promise<{ companyId: number; userId: number; dueDate: string }> {
    return this.signups.signup(body, req.ip ?? 'unknown');
  }
}
