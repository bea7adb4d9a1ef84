import { IsInt, IsString, Max, Min } from 'class-validator';
import { InfraEnv } from '@wa/server-kit';

export class CampaignsEnv extends InfraEnv {
  override PORT: number = 3104;

  /** auth: a company's standing (active, plan flags, time zone) for the plan gate of the pacer */
  @IsString()
  AUTH_URL: string = 'http://127.0.0.1:3101';

  /** tickets: a tag's contacts (a campaign's audience without a list) and a file list's files */
  @IsString()
  TICKETS_URL: string = 'http://127.0.0.1:3102';

  /**
   * The platform's floor between two campaign sends on one connection (ms), whatever the company's settings:
   * 5,000 in production; `npm start` runs with 1,000; tests set less.
   */
  @IsInt()
  @Min(0)
  CAMPAIGN_MIN_GAP_MS: number = 5_000;

  /** How long what auth answered about a company (active, plan, time zone) is reused by the pacer and the start (ms). */
  @IsInt()
  @Min(0)
  COMPANY_STANDING_TTL_MS: number = 15_000;

  /** How long a confirmation waits for the contact's answer before its row ends unconfirmed (hours). */
  @IsInt()
  @Min(0)
  @Max(24 * 30)
  CAMPAIGN_CONFIRMATION_HOURS: number = 24;

  /** How often confirmations nobody answered in time are ended (ms). */
  @IsInt()
  @Min(100)
  CAMPAIGN_EXPIRY_SWEEP_MS: number = 30_000;

  /** Numbers asked of WhatsApp in one query of the background check, and the gap between two queries on a connection (ms). */
  @IsInt()
  @Min(1)
  @Max(500)
  NUMBER_CHECK_BATCH: number = 50;

  @IsInt()
  @Min(0)
  NUMBER_CHECK_GAP_MS: number = 2_000;
}
