/** spec 01 §2 and §9: the last message on a card is cut to 20 characters. */
export const PREVIEW_CHARS = 20;

export function lastMessagePreview(text: string | null | undefined, max = PREVIEW_CHARS): string {
  // WhatsApp's *bold* markers (the agent's signature) are not shown
  const flat = (text ?? '')
    .replace(/\*([^*\n]+)\*/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = Array.from(flat);
  return chars.length > max ? `${chars.slice(0, max).join('')}...` : flat;
}
