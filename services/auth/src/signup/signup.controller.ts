import { Body, Controller, Post } from '@nestjs/common';
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
  signup(@Body() body: SignupDto): Promise<{ companyId: number; userId: number; dueDate: string }> {
    return this.signups.signup(body);
  }
}
