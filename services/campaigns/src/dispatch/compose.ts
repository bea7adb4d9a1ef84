import { DEFAULT_OPT_OUT_KEYWORDS, type CampaignVariable } from '@wa/contracts';

/** The contact a message is filled for. */
export interface Recipient {
  name: string;
  number: string;
  email: string;
}

/** One of the non-empty texts, at random (null when all are empty). */
export function pickVariant(texts: readonly string[], random: () => number): string | null {
  const filled = texts.filter((t) => t.trim().length > 0);
  if (filled.length === 0) return null;
  return filled[Math.min(filled.length - 1, Math.floor(random() * filled.length))] as string;
}

/**
 * A text with {nome}, {numero}, {email} and the company's variables ({key}) filled; a key matches in any case.
 * Unknown keys stay as they are.
 */
export function fillPlaceholders(text: string, to: Recipient, variables: readonly CampaignVariable[]): string {
  const values = new Map<string, string>();
  for (const v of variables) if (v.key) values.set(v.key.toLowerCase(), v.value);
  values.set('nome', to.name);
  values.set('numero', to.number);
  values.set('email', to.email);
  return text.replace(/\{([^{}\s]{1,50})\}/g, (whole, key: string) => values.get(key.toLowerCase()) ?? whole);
}

/** Upper case, no accents, no surrounding spaces or end punctuation: how a keyword and a message are compared. */
export function keywordForm(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .trim()
    .replace(/[.!\s]+$/u, '')
    .toUpperCase();
}

/** Whether a whole message is one of the opt-out words (any case and accents). */
export function isOptOut(body: string, keywords: readonly string[] = DEFAULT_OPT_OUT_KEYWORDS): boolean {
  if (!body || body.length > 40) return false;
  const said = keywordForm(body);
  return said.length > 0 && keywords.some((k) => keywordForm(k) === said);
}

/** The short message that confirms an opt-out. */
export const OPT_OUT_CONFIRMATION = 'Pronto! Você não receberá mais nossas campanhas. Para voltar a recebê-las, fale conosco.';
