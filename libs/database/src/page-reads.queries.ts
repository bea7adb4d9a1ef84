/** What keeps one plan per statement: a generic plan, with sequential scans priced out (see PageReads). */
export const KEPT_PLANS = { plan_cache_mode: 'force_generic_plan', enable_seqscan: 'off' } as const;

/** A transaction's start with the kept-plan settings, in one simple query of constant text (keptPlansTransaction). */
export const BEGIN_KEPT_PLANS = `START TRANSACTION; ${Object.entries(KEPT_PLANS)
  .map(([k, v]) => `SET LOCAL ${k} = ${v}`)
  .join('; ')}`;
