/**
 * Whom a chat is with, in our ids: a phone number (digits with the country code), a group's id, or a LID
 * (WhatsApp's id for a contact whose number it hides). How WhatsApp addresses them (jids) is the Baileys
 * provider's business alone.
 */
export interface ChatAddress {
  kind: 'phone' | 'group' | 'lid';
  id: string;
}

/**
 * A send's `to` (the contact's number as tickets keeps it) as an address: a group id (old `<number>-<time>`
 * or new 18+ digit ids) is a group; `<id>@lid` a LID (`<id>@g.us` a group, any other `<id>@…` that id as a
 * phone); anything else a phone number, its digits kept.
 */
export function chatAddress(to: string): ChatAddress {
  const t = to.trim();
  const at = t.indexOf('@');
  if (at >= 0) {
    const id = t.slice(0, at);
    const server = t.slice(at + 1);
    return { kind: server === 'lid' ? 'lid' : server === 'g.us' ? 'group' : 'phone', id };
  }
  if (t.includes('-') || /^\d{18,}$/.test(t)) return { kind: 'group', id: t };
  return { kind: 'phone', id: t.replace(/\D/g, '') };
}
