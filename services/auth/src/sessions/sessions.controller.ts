import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentUser, decodeAccessToken, bearerToken, Public } from '@wa/auth';
import { REFRESH_COOKIE, REFRESH_COOKIE_PATH, type AccessTokenClaims, type LoginResponse, type UserDto } from '@wa/contracts';
import type { CookieOptions, Request, Response } from 'express';
import { AuthEnv } from '../config/env.js';
import { LoginDto } from './sessions.dto.js';
import { SessionsService, type IssuedSession } from './sessions.service.js';

@ApiTags('session')
@Controller('auth')
export class SessionsController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly env: AuthEnv,
  ) {}

  @Public()
  @Post('login')
  @HttpCode(200)
  async login(@Body() body: LoginDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<LoginResponse> {
    const issued = await this.sessions.login(body.email, body.password, req.ip ?? 'unknown', req.headers['user-agent'], body.newPassword);
    return this.answer(issued, res);
  }

  @Public()
  @Post('refresh_token')
  @HttpCode(200)
  async refresh(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<LoginResponse> {
    try {
      return this.answer(await this.sessions.refresh(req.cookies?.[REFRESH_COOKIE]), res);
    } catch (err) {
      res.clearCookie(REFRESH_COOKIE, this.cookieOptions());
      throw err;
    }
  }

  @Public()
  @Delete('logout')
  @HttpCode(204)
  async logout(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    const decoded = decodeAccessToken(bearerToken(req.headers.authorization), this.env.JWT_SECRET);
    await this.sessions.logout(req.cookies?.[REFRESH_COOKIE], decoded.ok ? decoded.claims : undefined);
    res.clearCookie(REFRESH_COOKIE, this.cookieOptions());
  }

  @Get('me')
  me(@CurrentUser() caller: AccessTokenClaims): Promise<UserDto> {
    return this.sessions.userWithCompany(caller.id);
  }

  private answer(issued: IssuedSession, res: Response): LoginResponse {
    res.cookie(REFRESH_COOKIE, issued.refreshToken, { ...this.cookieOptions(), expires: issued.refreshExpiresAt });
    return { token: issued.token, user: issued.user };
  }

  private cookieOptions(): CookieOptions {
    return { httpOnly: true, path: REFRESH_COOKIE_PATH, sameSite: 'lax', secure: this.env.COOKIE_SECURE };
  }
}
