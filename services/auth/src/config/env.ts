import { IsBoolean, IsInt, IsString, Min } from 'class-validator';
import { InfraEnv } from '@wa/server-kit';

export class AuthEnv extends InfraEnv {
  override PORT: number = 3101;

  /** Days a refresh token (and so a login) stays valid without use. */
  @IsInt()
  @Min(1)
  REFRESH_TTL_DAYS: number = 7;

  @IsBoolean()
  COOKIE_SECURE: boolean = false;

  /** Failed logins allowed per email, and per IP, within LOGIN_WINDOW_S before 429. */
  @IsInt()
  @Min(1)
  LOGIN_MAX_FAILS_PER_EMAIL: number = 5;

  @IsInt()
  @Min(1)
  LOGIN_MAX_FAILS_PER_IP: number = 30;

  @IsInt()
  @Min(1)
  LOGIN_WINDOW_S: number = 900;

  @IsString()
  APP_VERSION: string = '0.1.0';
}
