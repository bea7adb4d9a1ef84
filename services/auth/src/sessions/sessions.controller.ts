import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
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
  @ApiResponse({
    status: 200,
    description:
      '{ token: the access token (Authorization: Bearer), user: { id, name, email, profile, companyId, queues, company, … } }, and the refresh token in an httpOnly cookie',
  })
  @ApiResponse({ status: 401, description: 'ERR_INVALID_CREDENTIALS: wrong email or password; ERR_SUBSCRIPTION_EXPIRED' })
  @ApiResponse({ status: 403, description: 'ERR_PASSWORD_CHANGE_REQUIRED: send newPassword; ERR_NO_PERMISSION: the company is disabled' })
  @ApiResponse({ status: 429, description: 'ERR_TOO_MANY_ATTEMPTS: too many failed logins (Retry-After)' })
  async login(@Body() body: LoginDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<LoginResponse> {
    const issued = await this.sessions.login(body.email, body.password, req.ip ?? 'unknown', req.headers['user-agent'], body.newPassword);
    return this.answer(issued, res);
  }

  @Public()
  @Post('refresh_token')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description:
      'a new session from the refresh cookie: { token: the access token (Authorization: Bearer), user: { id, name, email, profile, companyId, queues, company, … } }, and the refresh token in an httpOnly cookie (rotated)',
  })
  @ApiResponse({ status: 401, description: 'ERR_SESSION_EXPIRED: no refresh cookie, or it expired or was revoked (the cookie is cleared)' })
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
  @ApiResponse({ status: 204, description: 'signed out: the refresh token revoked and its cookie cleared (no body)' })
  async logout(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    const decoded = decodeAccessToken(bearerToken(req.headers.authorization), this.env.JWT_SECRET);
    await this.sessions.logout(req.cookies?.[REFRESH_COOKIE], decoded.ok ? decoded.claims : undefined);
    res.clearCookie(REFRESH_COOKIE, this.cookieOptions());
  }

  @Get('me')
  @ApiResponse({
    status: 200,
    description: 'the signed-in user with their company: { id, name, email, profile, companyId, queues, company, … }',
  })
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
