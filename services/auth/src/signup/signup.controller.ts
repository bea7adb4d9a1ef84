import { Body, Controller, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiTags } from '@nestjs/swagger';
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
  signup(@Body() body: SignupDto, @Req() req: Request): Promise<{ companyId: number; userId: number; dueDate: string }> {
    return this.signups.signup(body, req.ip ?? 'unknown');
  }
}
