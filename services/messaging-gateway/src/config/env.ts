import { IsInt, IsString, Matches, Max, Min } from 'class-validator';
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

  /** Public messages API: sends per minute of one connection (its pace: what one number can safely send). */
  @IsInt()
  @Min(1)
  @Max(6000)
  API_SENDS_PER_MINUTE: number = 20;

  /** Public messages API: sends of one connection queued ahead at most (a burst is paced up to this, then 429). */
  @IsInt()
  @Min(1)
  @Max(100_000)
  API_QUEUE_MAX: number = 200;

  /**
   * How long the gateway reuses a company's plan for its plan gate (a plan change takes effect within it).
   * 0, the default: every plan-gated request asks auth, so a change applies on the next request.
   */
  @IsInt()
  @Min(0)
  PLAN_CACHE_MS: number = 0;

  @Matches(URL_RULE) AUTH_URL: string = 'http://127.0.0.1:3101';
  @Matches(URL_RULE) TICKETS_URL: string = 'http://127.0.0.1:3102';
  @Matches(URL_RULE) WHATSAPP_SESSIONS_URL: string = 'http://127.0.0.1:3103';
  @Matches(URL_RULE) CAMPAIGNS_URL: string = 'http://127.0.0.1:3104';
  @Matches(URL_RULE) BILLING_URL: string = 'http://127.0.0.1:3105';
  @Matches(URL_RULE) REALTIME_URL: string = 'http://127.0.0.1:3106';
}
