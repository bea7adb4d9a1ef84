import { CAMPAIGN_INTERVALS } from '@wa/contracts';
import { campaignsShown } from '../../app/plan-flags';
import type {
  CampaignDto,
  CampaignReport,
  CampaignSettingDto,
  CampaignSettingsBody,
  CampaignStatus,
  CampaignVariable,
} from '@wa/contracts';

/** spec 02 §4: scheduling closer than this locks the campaign's editing. */
export const EDIT_LOCK_MS = 60 * 60 * 1000;
/** spec 02 §4: an open report reloads this long after a live update turned it FINALIZADA. */
export const REPORT_RELOAD_MS = 5000;
/** spec 02 §9: toasts close after 3 s in the campaign areas. */
export const CAMPAIGN_TOAST_MS = 3000;
/** The local-storage flag the original's menu reads (spec 02 §2 "cshow"). */
export const CSHOW_KEY = 'cshow';

/** The five message variants (Msg.1 to Msg.5) and their confirmation texts. */
export const MESSAGE_SLOTS = [1, 2, 3, 4, 5] as const;
export type MessageSlot = (typeof MESSAGE_SLOTS)[number];

/** The spec's Portuguese label of each status (shown as written in every language). */
export const STATUS_LABELS: Record<CampaignStatus, string> = {
  INATIVA: 'Inativa',
  PROGRAMADA: 'Programada',
  EM_ANDAMENTO: 'Em Andamento',
  CANCELADA: 'Cancelada',
  FINALIZADA: 'Finalizada',
};

/** The `cshow` rule (issue 40, item 12), with the plan flags (app/plan-flags). */
export { campaignsShown };

/** What the campaign dialog lets change (spec 02 §4). */
export interface CampaignEditability {
  /** every field */
  all: boolean;
  /** the message texts (also when CANCELADA) */
  messages: boolean;
}

/**
 * spec 02 §4: editable only when INATIVA, or PROGRAMADA with scheduledAt more than one hour away; the messages
 * stay editable when CANCELADA. A new campaign (null) is editable.
 */
export function campaignEditability(
  campaign: Pick<CampaignDto, 'status' | 'scheduledAt'> | null,
  now: number = Date.now(),
): CampaignEditability {
  if (!campaign) return { all: true, messages: true };
  const scheduled = campaign.scheduledAt ? Date.parse(campaign.scheduledAt) : NaN;
  const all =
    campaign.status === 'INATIVA' || (campaign.status === 'PROGRAMADA' && Number.isFinite(scheduled) && scheduled - now > EDIT_LOCK_MS);
  return { all, messages: all || campaign.status === 'CANCELADA' };
}

/** spec 02 §5: a variable whose shortcut is already present is not added again (blank ones neither). */
export function addVariable(variables: CampaignVariable[], next: CampaignVariable): CampaignVariable[] {
  const key = next.key.trim();
  if (!key || variables.some((v) => v.key === key)) return variables;
  return [...variables, { key, value: next.value }];
}

/** The report's progress: delivered out of valid, as a whole percentage 0–100. */
export function reportProgress(report: Pick<CampaignReport, 'valid' | 'delivered'> | null | undefined): number {
  if (!report || report.valid <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((report.delivered / report.valid) * 100)));
}

/** The variables the messages may carry: the built-in ones, then the company's own. */
export function variableHints(custom: CampaignVariable[]): string[] {
  return ['{nome}', '{numero}', '{email}', ...custom.map((v) => `{${v.key}}`)];
}

/** A datetime-local input's value (the browser's clock) for an ISO date, and back. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export type CampaignSettingsValues = CampaignSettingsBody['settings'];

/**
 * GET /campaign-settings (`{key, value}` with JSON values) read with the spec's defaults (§9) for what is missing;
 * `optOutKeywords` only when the company keeps its own (the server's defaults otherwise).
 */
export function parseCampaignSettings(entries: ReadonlyArray<CampaignSettingDto> | undefined): CampaignSettingsValues {
  const out: CampaignSettingsValues = {
    messageInterval: CAMPAIGN_INTERVALS.messageInterval.default,
    longerIntervalAfter: CAMPAIGN_INTERVALS.longerIntervalAfter.default,
    greaterInterval: CAMPAIGN_INTERVALS.greaterInterval.default,
    variables: [],
  };
  for (const entry of entries ?? []) {
    let value: unknown;
    try {
      value = JSON.parse(entry.value);
    } catch {
      continue;
    }
    if (entry.key === 'variables') {
      if (Array.isArray(value))
        out.variables = value.filter(
          (v): v is CampaignVariable => !!v && typeof v === 'object' && typeof (v as CampaignVariable).key === 'string',
        );
    } else if (entry.key === 'optOutKeywords') {
      if (Array.isArray(value)) out.optOutKeywords = value.filter((w): w is string => typeof w === 'string');
    } else if (entry.key in CAMPAIGN_INTERVALS && typeof value === 'number') {
      out[entry.key] = value;
    }
  }
  return out;
}

/** The opt-out words as typed (comma- or line-separated): trimmed, upper-case, each once. */
export function parseKeywords(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,\n]/)
        .map((w) => w.trim().toUpperCase())
        .filter(Boolean),
    ),
  ];
}
