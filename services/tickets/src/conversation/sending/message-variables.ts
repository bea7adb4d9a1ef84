import { tz } from '@date-fns/tz';
import { format } from 'date-fns';

/** What a message's variables are filled from. */
export interface VariableContext {
  contactName: string;
  ticketId: number;
  /** the company's time zone (its `timezone` setting) */
  timeZone: string;
  now?: Date;
}

const VARIABLE = /\{\{\s*(firstName|name|ms|protocol|hora)\s*\}\}/g;

/** The greeting of the hour, as the product the spec describes writes it. */
function greetingOfHour(hour: number): string {
  if (hour < 6) return 'Boa Madrugada!';
  if (hour < 12) return 'Bom dia!';
  if (hour < 18) return 'Boa Tarde!';
  return 'Boa Noite!';
}

/**
 * Fills the variables of an agent's text (quick replies carry them): `{{firstName}}` and `{{name}}` of the
 * contact, `{{ms}}` the greeting of the hour, `{{protocol}}` the date and time with the ticket's number,
 * `{{hora}}` the time, all on the company's clocks. Anything else in braces is left as written.
 */
export function fillVariables(text: string, ctx: VariableContext): string {
  if (!text.includes('{{')) return text;
  const now = ctx.now ?? new Date();
  const zone = { in: tz(ctx.timeZone) };
  const name = ctx.contactName.trim();
  const values: Record<string, string> = {
    name,
    firstName: name.split(/\s+/)[0] ?? '',
    ms: greetingOfHour(Number(format(now, 'H', zone))),
    protocol: `${format(now, 'yyyyMMddHHmmss', zone)}${ctx.ticketId}`,
    hora: format(now, 'HH:mm:ss', zone),
  };
  return text.replace(VARIABLE, (_all, key: string) => values[key] ?? '');
}
