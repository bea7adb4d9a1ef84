import { IsString, Matches } from 'class-validator';
import { MessagingEnv } from '@wa/server-kit';

const URL_RULE = /^https?:\/\/[^/]+$/;

export class GatewayEnv extends MessagingEnv {
  override HOST: string = '0.0.0.0';
  override PORT: number = 8080;

  /** Origins of the web app allowed with credentials, comma-separated. */
  @IsString()
  WEB_ORIGIN: string = 'http://localhost:3000,http://127.0.0.1:3000';

  /** Upper bound of a file upload (multipart body): media, spreadsheets; each service checks its own limits too. */
  @Matches(/^\d+(b|kb|mb)$/i)
  UPLOAD_BODY_LIMIT: string = '100mb';

  @Matches(URL_RULE) AUTH_URL: string = 'http://127.0.0.1:3101';
  @Matches(URL_RULE) TICKETS_URL: string = 'http://127.0.0.1:3102';
  @Matches(URL_RULE) WHATSAPP_SESSIONS_URL: string = 'http://127.0.0.1:3103';
  @Matches(URL_RULE) CAMPAIGNS_URL: string = 'http://127.0.0.1:3104';
  @Matches(URL_RULE) BILLING_URL: string = 'http://127.0.0.1:3105';
  @Matches(URL_RULE) REALTIME_URL: string = 'http://127.0.0.1:3106';
}
