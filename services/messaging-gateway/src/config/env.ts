import { IsBoolean, IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { MessagingEnv } from '@wa/server-kit';

const URL_RULE = /^https?:\/\/[^/]+$/;
const URL_LIST_RULE = /^https?:\/\/[^/,]+(,https?:\/\/[^/,]+)*$/;

export class GatewayEnv extends MessagingEnv {
  override HOST: string = '0.0.0.0';
  override PORT: number = 8080;

  /**
   * `/docs` (every service's routes) answered through the ingress too; off, only requests made straight to the
   * gateway get it (an operator's port-forward, `npm start`). The public API's own `/api/docs` is always public.
   */
  @IsBoolean()
  DOCS_PUBLIC: boolean = false;

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
   * Public messages API: wrong tokens one client address (an IPv6 /64) may try in a minute; past it, its
   * unknown tokens answer 429 with Retry-After until the minute is over. Counted in Redis: every gateway
   * replica shares the count.
   */
  @IsInt()
  @Min(1)
  @Max(100_000)
  API_BAD_TOKENS_PER_MINUTE: number = 30;

  /**
   * How long at most the plan gate reuses a company's plan. A change made through the product (a company's
   * plan or status, a plan's flags) applies on the next request anyway: auth raises the plan epochs in Redis
   * and the gate asks again (planEpochKey). This bounds what a change made behind the product's back, or one
   * whose epoch could not be raised, may take. 0: every plan-gated request asks auth.
   */
  @IsInt()
  @Min(0)
  PLAN_CACHE_MS: number = 60_000;

  @Matches(URL_RULE) AUTH_URL: string = 'http://127.0.0.1:3101';
  @Matches(URL_RULE) TICKETS_URL: string = 'http://127.0.0.1:3102';
  /** One address, or several comma-separated (whatsapp-sessions run as plain processes: each call to the next in turn). */
  @Matches(URL_LIST_RULE, { message: 'WHATSAPP_SESSIONS_URL must be one or more comma-separated http(s) URLs' })
  WHATSAPP_SESSIONS_URL: string = 'http://127.0.0.1:3103';
  @Matches(URL_RULE) CAMPAIGNS_URL: string = 'http://127.0.0.1:3104';
  @Matches(URL_RULE) BILLING_URL: string = 'http://127.0.0.1:3105';
  @Matches(URL_RULE) REALTIME_URL: string = 'http://127.0.0.1:3106';
}
