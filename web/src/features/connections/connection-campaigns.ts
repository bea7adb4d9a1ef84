import { CAMPAIGN_HOURS_FORMAT, type CampaignPaceFields } from '@wa/contracts';

/** The campaign tab's fields (issue 40: the connection's daily cap, warm-up and sending window), as typed. */
export interface CampaignPaceFormValues {
  campaignDailyLimit: string;
  campaignWarmup: boolean;
  campaignHours: string;
}

export function campaignPaceFormOf(w: Partial<CampaignPaceFields> | null | undefined): CampaignPaceFormValues {
  return {
    campaignDailyLimit: String(w?.campaignDailyLimit ?? 0),
    campaignWarmup: w?.campaignWarmup ?? false,
    campaignHours: w?.campaignHours ?? '',
  };
}

/** The cap is a whole number 0 to 1,000,000 (0: none); the window 'HH:MM-HH:MM' or blank. */
export function validateCampaignPace(v: CampaignPaceFormValues): {
  campaignDailyLimit: 'wholeNumber' | undefined;
  campaignHours: 'campaignHours' | undefined;
} {
  const cap = v.campaignDailyLimit.trim();
  const whole = /^\d+$/.test(cap) && Number(cap) <= 1_000_000;
  return {
    campaignDailyLimit: whole ? undefined : 'wholeNumber',
    campaignHours: CAMPAIGN_HOURS_FORMAT.test(v.campaignHours.trim()) ? undefined : 'campaignHours',
  };
}

export function campaignPacePayload(v: CampaignPaceFormValues): CampaignPaceFields {
  return {
    campaignDailyLimit: Number(v.campaignDailyLimit.trim()),
    campaignWarmup: v.campaignWarmup,
    campaignHours: v.campaignHours.trim(),
  };
}
