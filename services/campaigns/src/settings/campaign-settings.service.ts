import { Injectable } from '@nestjs/common';
import { CAMPAIGN_INTERVALS, DEFAULT_OPT_OUT_KEYWORDS, type CampaignSettingDto, type CampaignVariable } from '@wa/contracts';
import { DomainError } from '@wa/server-kit';
import type { CampaignSettingsValuesDto } from './campaign-settings.dto.js';
import { CampaignSettingsRepository } from './campaign-settings.repository.js';

/** What the dispatcher paces and fills messages by. */
export interface CampaignSettings {
  messageInterval: number;
  longerIntervalAfter: number;
  greaterInterval: number;
  variables: CampaignVariable[];
  /** whole messages that opt a contact out */
  optOutKeywords: string[];
}

type IntervalKey = keyof typeof CAMPAIGN_INTERVALS;
const INTERVAL_KEYS = Object.keys(CAMPAIGN_INTERVALS) as IntervalKey[];

/** Filled from the contact itself: a company variable of this name would never be used. */
export const RESERVED_VARIABLES = ['nome', 'numero', 'email'];

const parse = (text: string | undefined): unknown => {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/** Stored values read back; anything missing, unparsable or no longer an option is its default (spec 02 §9). */
function settingsOf(stored: Map<string, string>): CampaignSettings {
  const interval = (key: IntervalKey): number => {
    const v = parse(stored.get(key));
    const options: readonly number[] = CAMPAIGN_INTERVALS[key].options;
    return typeof v === 'number' && options.includes(v) ? v : CAMPAIGN_INTERVALS[key].default;
  };
  const raw = parse(stored.get('variables'));
  const variables = Array.isArray(raw)
    ? raw
        .filter((v): v is CampaignVariable => !!v && typeof v.key === 'string' && typeof v.value === 'string')
        .map(({ key, value }) => ({ key, value }))
    : [];
  const words = parse(stored.get('optOutKeywords'));
  return {
    messageInterval: interval('messageInterval'),
    longerIntervalAfter: interval('longerIntervalAfter'),
    greaterInterval: interval('greaterInterval'),
    variables,
    optOutKeywords: Array.isArray(words) ? words.filter((w): w is string => typeof w === 'string') : [...DEFAULT_OPT_OUT_KEYWORDS],
  };
}

const view = (s: CampaignSettings): CampaignSettingDto[] => [
  ...INTERVAL_KEYS.map((key) => ({ key, value: JSON.stringify(s[key]) })),
  { key: 'variables', value: JSON.stringify(s.variables) },
  { key: 'optOutKeywords', value: JSON.stringify(s.optOutKeywords) },
];

/** A company's campaign settings, for the dispatcher (defaults when the company never saved them). */
@Injectable()
export class CampaignSettingsReader {
  constructor(private readonly repo: CampaignSettingsRepository) {}

  async of(companyId: number): Promise<CampaignSettings> {
    return settingsOf(await this.repo.values(companyId));
  }
}

/** GET/POST /campaign-settings (spec 02 §7): an array of `{key, value}`, the value JSON text. */
@Injectable()
export class CampaignSettingsService {
  constructor(
    private readonly repo: CampaignSettingsRepository,
    private readonly reader: CampaignSettingsReader,
  ) {}

  async list(companyId: number): Promise<CampaignSettingDto[]> {
    return view(await this.reader.of(companyId));
  }

  /** The three intervals (validated against §9's options by the DTO) and the variables, each key once. */
  async save(companyId: number, body: CampaignSettingsValuesDto): Promise<CampaignSettingDto[]> {
    const variables = body.variables.map((v) => ({ key: v.key.trim(), value: v.value }));
    const seen = new Set<string>();
    for (const [i, v] of variables.entries()) {
      const folded = v.key.toLowerCase();
      if (RESERVED_VARIABLES.includes(folded)) throw refuse(i, `{${v.key}} is filled from the contact`);
      if (seen.has(folded)) throw refuse(i, 'This shortcut is already there');
      seen.add(folded);
    }
    const settings: CampaignSettings = {
      messageInterval: body.messageInterval,
      longerIntervalAfter: body.longerIntervalAfter,
      greaterInterval: body.greaterInterval,
      variables,
      optOutKeywords: body.optOutKeywords
        ? [...new Set(body.optOutKeywords.map((w) => w.trim()).filter(Boolean))]
        : (await this.reader.of(companyId)).optOutKeywords,
    };
    await this.repo.save(companyId, Object.fromEntries(view(settings).map((s) => [s.key, s.value])));
    return view(settings);
  }
}

const refuse = (index: number, message: string) =>
  new DomainError(
    'ERR_VALIDATION',
    { details: [{ field: `settings.variables.${index}.key`, messages: [message] }] },
    `settings.variables.${index}.key: ${message}`,
  );
