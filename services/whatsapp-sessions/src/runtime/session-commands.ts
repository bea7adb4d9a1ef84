import {
  sessionCommandSubject,
  type AddressBookCommand,
  type AddressBookEntry,
  type CallRejectCommand,
  type ChatPresence,
  type PresenceCommand,
  type ErrorCode,
  type MessageChangeCommand,
  type NumberCheckCommand,
  type NumberCheckManyCommand,
  type ProfilePictureCommand,
  type SandboxInboundRequest,
  type SandboxHistoryRequest,
} from '@wa/contracts';
import { serve, type HasConnection } from '@wa/event-bus';

/** What can be asked of a connection's session, wherever it runs. */
export type SessionCommand =
  /** start a session that is not up; `reconnect`: one that is up closes and opens again, its pairing kept (the public API's restart) */
  | { action: 'start'; reconnect?: boolean }
  /** a new pairing: the auth state is forgotten and the session starts again (the "new QR" button) */
  | { action: 'restart' }
  /** disconnect: unpair (logout) and stop; the connection becomes DISCONNECTED */
  | { action: 'end' }
  /** stand-in phones only (the sandbox): deliver messages as WhatsApp would, in one upsert */
  | { action: 'inbound'; messages: SandboxInboundRequest[] }
  /** is a number on WhatsApp (asked by tickets for a contact) */
  | NumberCheckCommand
  /** which of these numbers are on WhatsApp, in one query (asked by campaigns for a contact list) */
  | NumberCheckManyCommand
  /** decline a call still ringing (asked by tickets when the company's `call` setting is disabled) */
  | CallRejectCommand
  /** stand-in phones only: a customer calls the phone (answered its call id once the offer is on JetStream) */
  | { action: 'sandboxCall'; from: string; isVideo: boolean }
  /** edit or delete (for everyone) a message already sent */
  | MessageChangeCommand
  /** a page of the phone's address book */
  | AddressBookCommand
  /** stand-in phones only: the address book they answer from now on */
  | { action: 'sandboxContacts'; contacts: AddressBookEntry[] }
  /** stand-in phones only: a customer who left WhatsApp (sends to the number are refused from now on) */
  | { action: 'sandboxLeave'; number: string }
  /** stand-in phones only: WhatsApp tells which number a LID stands for (Baileys' `lid-mapping.update`) */
  | { action: 'sandboxLidMapping'; lid: string; pn: string }
  /** stand-in phones only: WhatsApp bans the number (the session ends as on a 403) */
  | { action: 'sandboxBan' }
  /** stand-in phones only: WhatsApp closes the session with this code (Baileys' DisconnectReason) */
  | { action: 'sandboxDisconnect'; code: number }
  /** stand-in phones only: the phone loses its network for `seconds` (what customers write meanwhile is held) */
  | { action: 'sandboxOffline'; seconds: number }
  /** a pairing code for the phone with this number (digits with the country code), while the session waits for a pairing */
  | { action: 'pairingCode'; number: string }
  /** a contact's profile picture (asked by tickets for its contacts): `{ url }`, null when none */
  | ProfilePictureCommand
  /** stand-in phones only: the profile picture answered for a number from now on (null: none) */
  | { action: 'sandboxProfilePicture'; number: string; url: string | null }
  /** stand-in phones only: the phone is unpaired and the session starts over waiting for a pairing (a QR, or a pairing code) */
  | { action: 'sandboxUnpair' }
  /** stand-in phones only: WhatsApp's history sync reaches the phone (Baileys' `messaging-history.set`) */
  | ({ action: 'sandboxHistory' } & SandboxHistoryRequest)
  /** the agent types or records in a chat, or stops: told to the customer (asked by tickets, throttled there) */
  | PresenceCommand
  /** stand-in phones only: a customer types or records in their chat with the phone, or stops */
  | { action: 'sandboxPresence'; from: string; state: ChatPresence }
  /** stand-in phones only: what the phone told chats of its user's presence, oldest first */
  | { action: 'sandboxPresences' };

/** The answer of the process running the session; `notHere`: it does not (any longer), ask again. */
export type CommandReply =
  { ok: true; result?: unknown } | { ok: false; notHere?: boolean; code?: ErrorCode; message?: string; status?: number };

/** Core NATS subject (no stream holds it) on which the holder of a session takes commands. */
export const commandSubject = sessionCommandSubject;

/** How long a command may take at its holder (a restart opens a new session). */
export const COMMAND_TIMEOUT_MS = 15_000;

/** Takes the commands of one session running here, from any process; answers a function that stops taking them. */
export function serveCommands(
  bus: HasConnection,
  connectionId: number,
  execute: (cmd: SessionCommand) => Promise<CommandReply>,
): () => void {
  return serve<CommandReply>(bus, commandSubject(connectionId), (payload) => execute(payload as SessionCommand), {
    malformed: () => ({ ok: false, code: 'ERR_VALIDATION' }),
    failed: () => ({ ok: false, code: 'ERR_INTERNAL' }),
  });
}
