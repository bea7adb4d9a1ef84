import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { InfraEnv, Secret } from '@wa/server-kit';

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

  /**
   * Encrypts the company settings that are secrets (the IXC and MK-Auth tokens, the Asaas key; AES-256-GCM).
   * Required in production; elsewhere derived from JWT_SECRET. Changing it makes stored secrets unreadable.
   */
  @Secret({ requiredInProduction: true })
  @IsOptional()
  @IsString()
  AUTH_SECRETS_KEY?: string;

  /** Where password-reset mail goes out (npm start runs a local catcher on this port; its inbox: http://127.0.0.1:1080). */
  @Matches(/^smtps?:\/\/.+/, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL: string = 'smtp://127.0.0.1:1025';

  @IsString()
  MAIL_FROM: string = 'Conversa <nao-responda@conversa.local>';

  /** How long a password-reset code works. */
  @IsInt()
  @Min(60)
  @Max(86_400)
  RESET_CODE_TTL_S: number = 900;

  /** Codes asked per email, and per address, within RESET_WINDOW_S before 429 (an address cannot list accounts quickly). */
  @IsInt()
  @Min(1)
  RESET_MAX_PER_EMAIL: number = 3;

  /** Codes asked per email in a day (the account's mailbox and its codes' odds stay bounded). */
  @IsInt()
  @Min(1)
  RESET_MAX_PER_EMAIL_DAY: number = 5;

  @IsInt()
  @Min(1)
  RESET_MAX_PER_IP: number = 10;

  @IsInt()
  @Min(1)
  RESET_WINDOW_S: number = 900;

  /** Sign-ups per address within SIGNUP_WINDOW_S before 429. */
  @IsInt()
  @Min(1)
  SIGNUP_MAX_PER_IP: number = 5;

  @IsInt()
  @Min(1)
  SIGNUP_WINDOW_S: number = 3600;
}
