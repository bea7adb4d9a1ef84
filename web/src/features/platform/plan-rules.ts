import type { CreatePlanRequest, PlanFlags, PublicPlanDto, UpdatePlanRequest } from '@wa/contracts';
import { errorCode } from '../../app/errors';

/** spec 02 §3 "Plan": the features a plan may give, in the order the screen shows them (all default true). */
export const PLAN_FLAGS = [
  'useCampaigns',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
] as const satisfies readonly (keyof PlanFlags)[];

/** What a plan counts (0: no limit). */
export const PLAN_COUNTS = ['users', 'connections', 'queues'] as const;
export type PlanCount = (typeof PLAN_COUNTS)[number];

/** The bounds the server keeps (services/billing plans.dto.ts). */
export const PLAN_LIMITS = {
  nameMax: 100,
  countMax: 100_000,
  valueMax: 99_999_999,
  trialDaysMax: 365,
} as const;

/**
 * spec 02 §9: a new plan counts 0 users, connections and queues (no limit) and costs 0; every feature is on.
 * Offered at sign-up with 7 trial days, as the server's defaults.
 */
export const PLAN_DEFAULTS = { users: 0, connections: 0, queues: 0, value: 0, isPublic: true, trialDays: 7 } as const;

/** The form as typed: numbers stay text until sent. */
export interface PlanFormValues extends PlanFlags {
  name: string;
  users: string;
  connections: string;
  queues: string;
  /** the monthly price in BRL, "49,90" or "49.90" */
  value: string;
  isPublic: boolean;
  trialDays: string;
}

/** What the plan form sends to `POST /plans`: every field of `CreatePlanRequest` (`PUT /plans/{id}` takes any part of it). */
export type PlanBody = Required<CreatePlanRequest>;

/** What is wrong with a field (texts under `settings.plans.validation`). */
export type PlanProblem = 'required' | 'tooLong' | 'wholeNumber' | 'price' | 'max';
export type PlanErrors = Partial<Record<'name' | PlanCount | 'value' | 'trialDays', PlanProblem>>;

/** A whole number ≥ 0 as typed; NaN for anything else ('' included). */
export function parseWholeNumber(text: string): number {
  const t = text.trim();
  return /^\d+$/.test(t) ? Number(t) : NaN;
}

/** A price ≥ 0 with at most 2 decimals, the comma read as the decimal point; NaN for anything else. */
export function parsePrice(text: string): number {
  const t = text.trim().replace(',', '.');
  return /^\d+(\.\d{1,2})?$/.test(t) ? Number(t) : NaN;
}

function checkWhole(text: string, max: number): PlanProblem | null {
  const n = parseWholeNumber(text);
  if (Number.isNaN(n)) return 'wholeNumber';
  return n > max ? 'max' : null;
}

/** Name required (at most 100); counts and trial days whole numbers ≥ 0; the price ≥ 0 with at most 2 decimals. */
export function validatePlanForm(v: PlanFormValues): PlanErrors {
  const errors: PlanErrors = {};
  const name = v.name.trim();
  if (!name) errors.name = 'required';
  else if (name.length > PLAN_LIMITS.nameMax) errors.name = 'tooLong';
  for (const key of PLAN_COUNTS) {
    const problem = checkWhole(v[key], PLAN_LIMITS.countMax);
    if (problem) errors[key] = problem;
  }
  const price = parsePrice(v.value);
  if (Number.isNaN(price)) errors.value = 'price';
  else if (price > PLAN_LIMITS.valueMax) errors.value = 'max';
  const trial = checkWhole(v.trialDays, PLAN_LIMITS.trialDaysMax);
  if (trial) errors.trialDays = trial;
  return errors;
}

export const hasPlanErrors = (e: PlanErrors): boolean => Object.values(e).some(Boolean);

/** The bound a "max" problem names. */
export function planFieldMax(key: keyof PlanErrors): number {
  if (key === 'name') return PLAN_LIMITS.nameMax;
  if (key === 'value') return PLAN_LIMITS.valueMax;
  if (key === 'trialDays') return PLAN_LIMITS.trialDaysMax;
  return PLAN_LIMITS.countMax;
}

const allFlags = (on: (flag: keyof PlanFlags) => boolean): PlanFlags =>
  Object.fromEntries(PLAN_FLAGS.map((f) => [f, on(f)])) as unknown as PlanFlags;

/** A new plan starts with the spec's defaults; a saved one as the server has it. */
export function planFormOf(p: PublicPlanDto | null): PlanFormValues {
  if (!p) {
    return {
      name: '',
      users: String(PLAN_DEFAULTS.users),
      connections: String(PLAN_DEFAULTS.connections),
      queues: String(PLAN_DEFAULTS.queues),
      value: String(PLAN_DEFAULTS.value),
      ...allFlags(() => true),
      isPublic: PLAN_DEFAULTS.isPublic,
      trialDays: String(PLAN_DEFAULTS.trialDays),
    };
  }
  return {
    name: p.name,
    users: String(p.users ?? PLAN_DEFAULTS.users),
    connections: String(p.connections ?? PLAN_DEFAULTS.connections),
    queues: String(p.queues ?? PLAN_DEFAULTS.queues),
    value: (Number(p.value ?? PLAN_DEFAULTS.value) || 0).toFixed(2),
    ...allFlags((f) => p[f] !== false),
    isPublic: p.isPublic !== false,
    trialDays: String(p.trialDays ?? PLAN_DEFAULTS.trialDays),
  };
}

/** The body of a valid form (validatePlanForm found nothing): numbers as numbers, flags as booleans. */
export function planPayload(v: PlanFormValues): PlanBody {
  return {
    name: v.name.trim(),
    users: parseWholeNumber(v.users),
    connections: parseWholeNumber(v.connections),
    queues: parseWholeNumber(v.queues),
    value: parsePrice(v.value),
    ...allFlags((f) => v[f]),
    isPublic: v.isPublic,
    trialDays: parseWholeNumber(v.trialDays),
  };
}

/** What an edit changed (the `PUT /plans/{id}` body): the fields that differ from the saved plan. */
export function changedPlanFields(saved: PublicPlanDto, body: PlanBody): UpdatePlanRequest {
  const before = planPayload(planFormOf(saved));
  const out: UpdatePlanRequest = {};
  for (const key of Object.keys(body) as (keyof PlanBody)[]) {
    if (body[key] !== before[key]) (out as Record<string, unknown>)[key] = body[key];
  }
  return out;
}

/**
 * spec 02 §8: a refused save (a plan with that name, fields the server did not take) shows
 * 'Não foi possível realizar a operação. Verifique se já existe um plano com o mesmo nome...'; other
 * failures (no network, not allowed) show their own text.
 */
export function isPlanSaveRefusal(err: unknown): boolean {
  const code = errorCode(err);
  if (code === 'ERR_PLAN_NAME_EXISTS' || code === 'ERR_VALIDATION') return true;
  const status = err && typeof err === 'object' && 'status' in err ? (err as { status: unknown }).status : undefined;
  return status === 400 || status === 409 || status === 422;
}
