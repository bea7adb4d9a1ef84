import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '@wa/auth';
import { DomainError } from '@wa/server-kit';
import type { Request } from 'express';
import { PasswordResetService } from './password-reset.service.js';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{1,63}$/;

function checkedEmail(email: string): string {
  if (!email || !EMAIL.test(email.trim()))
    throw new DomainError('ERR_VALIDATION', { details: [{ field: 'email', messages: ['Invalid email'] }] }, 'Invalid email');
  return email;
}

/** spec 02 §7 "Password reset": the two public calls of /forgetpsw. */
@ApiTags('password reset')
@Controller()
export class PasswordResetController {
  constructor(private readonly resets: PasswordResetService) {}

  @Public()
  @Post('forgetpassword/:email')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: '{ message }: a reset code was emailed' })
  @ApiResponse({ status: 404, description: 'ERR_EMAIL_NOT_FOUND' })
  @ApiResponse({ status: 429, description: 'ERR_TOO_MANY_ATTEMPTS (Retry-After)' })
  @ApiResponse({ status: 503, description: 'ERR_SERVICE_UNAVAILABLE: the email could not be sent now' })
  ask(@Param('email') email: string, @Req() req: Request): Promise<{ message: string }> {
    return this.resets.ask(checkedEmail(email), req.ip ?? 'unknown');
  }

  @Public()
  @Post('resetpasswords/:email/:token/:newPassword')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: '{ message }: the password changed' })
  @ApiResponse({
    status: 400,
    description: 'ERR_VALIDATION: the new password breaks the rule; ERR_INVALID_RESET_CODE: wrong or expired code',
  })
  @ApiResponse({ status: 429, description: 'ERR_TOO_MANY_ATTEMPTS (Retry-After)' })
  reset(
    @Param('email') email: string,
    @Param('token') token: string,
    @Param('newPassword') newPassword: string,
    @Req() req: Request,
  ): Promise<{ message: string }> {
    return this.resets.reset(checkedEmail(email), token.trim(), newPassword, req.ip ?? 'unknown');
  }
}
