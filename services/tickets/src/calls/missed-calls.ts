/** The company setting that answers calls (spec 02 §3; the product's `call`): 'disabled' rejects them. */
export const CALL_SETTING = 'call';

/**
 * Whether a company with this value of `call` rejects its customers' calls: only 'disabled' does (auth gives every
 * company 'enabled'; a company tickets has no copy of yet follows that default and lets the phone ring).
 */
export function rejectsCalls(value: string | undefined): boolean {
  return value === 'disabled';
}

/** What a customer whose call was rejected is sent (the product's own text and spelling, "desabilitas" included). */
export const CALLS_DISABLED_MESSAGE =
  '*Mensagem Automática:*\n\nAs chamadas de voz e vídeo estão desabilitas para esse WhatsApp, favor enviar uma mensagem de texto. Obrigado';

/**
 * The line a rejected call leaves in the customer's conversation, as the product writes it: "Chamada de voz/vídeo
 * perdida às HH:mm", the time of the call on the company's clock (24 h).
 */
export function missedCallLine(at: Date, timeZone: string): string {
  const time = new Intl.DateTimeFormat('pt-BR', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  return `Chamada de voz/vídeo perdida às ${time}`;
}
