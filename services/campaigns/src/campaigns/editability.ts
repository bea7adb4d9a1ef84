import type { CampaignStatus } from '@wa/contracts';

/** Spec 02 §4/§9: a scheduled campaign is locked this long before it starts. */
export const EDIT_LOCK_MS = 60 * 60 * 1000;

/** What a PUT (or a media upload) may change: everything, only the message texts, or nothing. */
export type Editability = 'all' | 'messages' | 'none';

/** The fields a CANCELADA campaign still lets change (spec 02 §4: "Messages stay editable when CANCELADA"). */
export const MESSAGE_FIELDS = [
  'message1',
  'message2',
  'message3',
  'message4',
  'message5',
  'confirmationMessage1',
  'confirmationMessage2',
  'confirmationMessage3',
  'confirmationMessage4',
  'confirmationMessage5',
] as const;

/**
 * Spec 02 §4, enforced on the server: INATIVA, or PROGRAMADA more than an hour before its start, may change
 * in full; CANCELADA only its messages (a restart sends the rest with them); EM_ANDAMENTO, FINALIZADA and a
 * PROGRAMADA starting within the hour (or already due) not at all.
 */
export function editability(campaign: { status: CampaignStatus; scheduledAt: Date | string | null }, now: Date): Editability {
  switch (campaign.status) {
    case 'INATIVA':
      return 'all';
    case 'PROGRAMADA': {
      if (campaign.scheduledAt === null) return 'all';
      return new Date(campaign.scheduledAt).getTime() - now.getTime() > EDIT_LOCK_MS ? 'all' : 'none';
    }
    case 'CANCELADA':
      return 'messages';
    default:
      return 'none';
  }
}
