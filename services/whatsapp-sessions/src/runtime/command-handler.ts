import { LID_DIGITS } from '@wa/domain';
import { Injectable, Logger } from '@nestjs/common';
import {
  isChatPresence,
  ADDRESS_BOOK_PAGE_MAX,
  NUMBER_CHECK_MANY_MAX,
  SANDBOX_HISTORY_MAX,
  SANDBOX_OFFLINE_MAX_SECONDS,
  type AddressBookPage,
  type NumberCheckManyResult,
  type PairingCodeResponse,
  type ProfilePictureResult,
  type SandboxHistoryResponse,
} from '@wa/contracts';
import { isTransientError } from '@wa/event-bus';
import { DomainError } from '@wa/server-kit';
import { chatAddress } from './providers/chat-address.js';
import { hasSandboxAbilities, ProviderClosedError } from './providers/provider.js';
import type { CommandReply, SessionCommand } from './session-commands.js';
import { SessionRunner } from './session-runner.js';
import { SessionStore } from './session-store.repository.js';

/** A call's id as WhatsApp gives it (hex digits; letters, digits, _ and - at most). */
const CALL_ID = /^[\w-]{1,128}$/;
/** A caller in our ids: their number, or `<lid>@lid`. */
const CALLER = /^(\d{8,20}|\d{6,30}@lid)$/;

/**
 * Carries out the commands of the sessions running in this process (`session-commands.ts`: start, restart, end,
 * a number check, an edit or deletion, the address book, the sandbox phone's hooks), whether they were asked
 * here or by another process over NATS. Registers itself with the runner, which serves each session's subject.
 */
@Injectable()
export class CommandHandler {
  private readonly logger = new Logger(CommandHandler.name);

  constructor(
    private readonly runner: SessionRunner,
    private readonly store: SessionStore,
  ) {
    runner.handleCommandsWith((connectionId, cmd) => this.execute(connectionId, cmd));
  }

  /** Carries out a command on a session running here; `notHere` when it does not (any longer). Never rejects. */
  async execute(connectionId: number, cmd: SessionCommand): Promise<CommandReply> {
    try {
      switch (cmd.action) {
        case 'start':
        case 'restart':
          return await this.runner.exclusive(connectionId, async (running) => {
            const s = this.runner.session(connectionId);
            if (!running || !s) return { ok: false, notHere: true };
            // "try again" on a session that is up changes nothing (unless a reconnect is asked); otherwise it starts over
            if (cmd.action === 'start' && !cmd.reconnect && s.status === 'CONNECTED') return { ok: true };
            const row = await this.store.byId(connectionId);
            await this.runner.stop(connectionId, { release: !row });
            if (!row) return { ok: false, code: 'ERR_NO_WAPP_FOUND' };
            await this.runner.launch(row, { fresh: cmd.action === 'restart', epoch: s.epoch });
            return { ok: true };
          });
        case 'end':
          return await this.runner.exclusive(connectionId, async (running) => {
            if (!running) return { ok: false, notHere: true };
            await this.runner.stop(connectionId, { logout: true, status: 'DISCONNECTED', release: true });
            return { ok: true };
          });
        case 'inbound': {
          const s = this.runner.session(connectionId);
          if (!s) return { ok: false, notHere: true };
          if (!hasSandboxAbilities(s.provider))
            return { ok: false, code: 'ERR_VALIDATION', message: 'This connection is not a sandbox connection.' };
          // a phone cut off (sandbox/offline) holds what customers write for its reconnect, as WhatsApp does
          if (s.status !== 'CONNECTED' && !s.provider.isOffline()) return { ok: false, code: 'ERR_WAPP_NOT_INITIALIZED' };
          const ids = await s.provider.deliverInbound(cmd.messages);
          return { ok: true, result: { ids } };
        }
        case 'check': {
          const s = this.runner.session(connectionId);
          if (!s) return { ok: false, notHere: true };
          if (s.status !== 'CONNECTED') return { ok: false, code: 'ERR_WAPP_NOT_INITIALIZED' };
          if (typeof cmd.number !== 'string' || !/^\d{8,15}$/.test(cmd.number)) return { ok: false, code: 'ERR_WAPP_INVALID_CONTACT' };
          return { ok: true, result: await s.provider.checkNumber(cmd.number) };
        }
        case 'checkMany': {
          const s = this.runner.session(connectionId);
          if (!s) return { ok: false, notHere: true };
          if (s.status !== 'CONNECTED') return { ok: false, code: 'ERR_WAPP_NOT_INITIALIZED' };
          const numbers = cmd.numbers as unknown;
          if (!Array.isArray(numbers) || numbers.length > NUMBER_CHECK_MANY_MAX || !numbers.every((n) => typeof n === 'string'))
            return { ok: false, code: 'ERR_VALIDATION', message: `numbers: at most ${NUMBER_CHECK_MANY_MAX} numbers` };
          // what cannot be a number is answered without asking WhatsApp; the rest in one query, each once
          const valid = [...new Set((numbers as string[]).filter((n) => /^\d{8,15}$/.test(n)))];
          const found = new Map((await s.provider.checkNumbers(valid)).map((r) => [r.number, r]));
          const result: NumberCheckManyResult = {
            results: (numbers as string[]).map((number) => {
              const r = found.get(number);
              return { number, exists: r?.exists === true, jid: r?.exists ? r.jid : null };
            }),
          };
          return { ok: true, result };
        }
        case 'contacts': {
          const s = this.runner.session(connectionId);
          if (!s) return { ok: false, notHere: true };
          if (s.status !== 'CONNECTED') return { ok: false, code: 'ERR_WAPP_NOT_INITIALIZED' };
          const size = Math.min(ADDRESS_BOOK_PAGE_MAX, Math.max(1, Math.trunc(Number(cmd.pageSize) || ADDRESS_BOOK_PAGE_MAX)));
          const page = Math.max(1, Math.trunc(Number(cmd.page) || 1));
          const book = await s.provider.addressBook();
          const result: AddressBookPage = { contacts: book.slice((page - 1) * size, page * size), hasMore: book.length > page * size };
          return { ok: true, result };
        }
        case 'sandboxContacts': {
          const s = this.runner.session(connectionId);
          if (!s) return { ok: false, notHere: true };
          if (!hasSandboxAbilities(s.provider))
            return { ok: false, code: 'ERR_VALIDATION', message: 'This connection is not a sandbox connection.' };
          s.provider.setAddressBook(Array.isArray(cmd.contacts) ? cmd.contacts : []);
          return { ok: true };
        }
        case 'rejectCall': {
          const s = this.runner.session(connectionId);
          if (!s) return { ok: false, notHere: true };
          if (s.status !== 'CONNECTED') return { ok: false, code: 'ERR_WAPP_NOT_INITIALIZED' };
          if (typeof cmd.callId !== 'string' || !CALL_ID.test(cmd.callId) || typeof cmd.from !== 'string' || !CALLER.test(cmd.from))
            return { ok: false, code: 'ERR_VALIDATION' };
          try {
            await s.provider.rejectCall({ id: cmd.callId, from: cmd.from });
          } catch (err) {
            if (err instanceof ProviderClosedError || isTransientError(err)) throw err;
            this.logger.warn({ err, connectionId, callId: cmd.callId }, 'WhatsApp refused a call rejection');
            return { ok: false, code: 'ERR_SENDING_WAPP_MSG', message: "WhatsApp did not take the call's rejection." };
          }
          return { ok: true };
        }
        case 'sandboxCall': {
          const s = this.runner.session(connectionId);
          if (!s) return { ok: false, notHere: true };
          if (!hasSandboxAbilities(s.provider))
            return { ok: false, code: 'ERR_VALIDATION', message: 'This connection is not a sandbox connection.' };
          if (s.status !== 'CONNECTED') return { ok: false, code: 'ERR_WAPP_NOT_INITIALIZED' };
          if (typeof cmd.from !== 'string' || !CALLER.test(cmd.from)) return { ok: false, code: 'ERR_VALIDATION' };
          const callId = await s.provider.offerCall({ from: cmd.from, isVideo: cmd.isVideo === true });
          return { ok: true, result: { callId } };
        }
        case 'sandboxLeave': {
          const s = this.runner.session(connectionId);
          if (!s) return { ok: false, notHere: true };
          if (!hasSandboxAbilities(s.provider))
            return { ok: false, code: 'ERR_VALIDATION', message: 'This connection is not a sandbox connection.' };
          if (typeof cmd.number !== 'string' || !/^\d{8,20}$/.test(cmd.number)) return { ok: false, code: 'ERR_VALIDATION' };
          s.provider.leaveWhatsapp(cmd.number);
          return { ok: true };
        }
        case 'sandboxLidMapping': {
          const s = this.runner.session(connectionId);
          if (!s) return { ok: false, notHere: true };
          if (!hasSandboxAbilities(s.provider))
            return { ok: false, code: 'ERR_VALIDATION', message: 'This connection is not a sandbox connection.' };
          if (s.status !== 'CONNECTED') return { ok: false, code: 'ERR_WAPP_NOT_INITIALIZED' };
          if (typeof cmd.lid !== 'string' || !LID_DIGITS.test(cmd.lid) || typeof cmd.pn !== 'string' || !/^\d{8,20}$/.test(cmd.pn))
            return { ok: false, code: 'ERR_VALIDATION' };
          await s.provider.lidMapping(cmd.lid, cmd.pn);
          return { ok: true };
        }
        case 'sandboxBan': {
          const s = this.runner.session(connectionId);
          if (!s) return { ok: false, notHere: true };
          if (!hasSandboxAbilities(s.provider))
            return { ok: false, code: 'ERR_VALIDATION', message: 'This connection is not a sandbox connection.' };
          if (s.status !== 'CONNECTED') return { ok: false, code: 'ERR_WAPP_NOT_INITIALIZED' };
          // the session ends right after this answer, as a socket closes on its own
          s.provider.ban();
          return { ok: true };
        }
        case 'sandboxDisconnect': {
          const s = this.runner.session(connectionId);
          if (!s) return { ok: false, notHere: true };
          if (!hasSandboxAbilities(s.provider))
            return { ok: false, code: 'ERR_VALIDATION', message: 'This connection is not a sandbox connection.' };
          if (!Number.isInteger(cmd.code) || cmd.code < 400 || cmd.code > 599) return { ok: false, code: 'ERR_VALIDATION' };
          if (s.status !== 'CONNECTED') return { ok: false, code: 'ERR_WAPP_NOT_INITIALIZED' };
          // the session closes right after this answer, as a socket closes on its own
          s.provider.disconnect(cmd.code);
          return { ok: true };
        }
        case 'sandboxOffline': {
          const s = this.runner.session(connectionId);
          if (!s) return { ok: false, notHere: true };
          if (!hasSandboxAbilities(s.provider))
            return { ok: false, code: 'ERR_VALIDATION', message: 'This connection is not a sandbox connection.' };
          if (!Number.isInteger(cmd.seconds) || cmd.seconds < 1 || cmd.seconds > SANDBOX_OFFLINE_MAX_SECONDS)
            return { ok: false, code: 'ERR_VALIDATION' };
          if (s.status !== 'CONNECTED') return { ok: false, code: 'ERR_WAPP_NOT_INITIALIZED' };
          // the connection drops right after this answer, as a network loss closes a socket
          await s.provider.offline(cmd.seconds);
          return { ok: true };
        }
        case 'pairingCode': {
          const s = this.runner.session(connectionId);
          if (!s) return { ok: false, notHere: true };
          if (typeof cmd.number !== 'string' || !/^\d{10,15}$/.test(cmd.number)) return { ok: false, code: 'ERR_WAPP_INVALID_CONTACT' };
          if (s.status !== 'qrcode')
            return {
              ok: false,
              code: 'ERR_WAPP_NOT_INITIALIZED',
              message: `The connection is not waiting for a pairing (it is ${s.status}).`,
            };
          let code: string;
          try {
            code = await s.provider.requestPairingCode(cmd.number);
          } catch (err) {
            if (err instanceof ProviderClosedError) throw err;
            this.logger.warn({ err, connectionId }, 'WhatsApp gave no pairing code');
            return {
              ok: false,
              code: 'ERR_WAPP_NOT_INITIALIZED',
              message: 'WhatsApp gave no pairing code; try again, or scan the QR code.',
            };
          }
          return { ok: true, result: { code: pairingCodeShown(code) } satisfies PairingCodeResponse };
        }
        case 'profilePicture': {
          const s = this.runner.session(connectionId);
          if (!s) return { ok: false, notHere: true };
          if (s.status !== 'CONNECTED') return { ok: false, code: 'ERR_WAPP_NOT_INITIALIZED' };
          if (typeof cmd.to !== 'string' || !cmd.to) return { ok: false, code: 'ERR_VALIDATION' };
          let url: string | null;
          try {
            url = await s.provider.profilePicture(chatAddress(cmd.to));
          } catch (err) {
            if (err instanceof ProviderClosedError) throw err;
            // WhatsApp did not answer (a timeout, a refusal other than "none"): the asker tries again later
            this.logger.warn({ err, connectionId }, 'WhatsApp did not answer a profile picture');
            return { ok: false, code: 'ERR_SERVICE_UNAVAILABLE', status: 503 };
          }
          return { ok: true, result: { url } satisfies ProfilePictureResult };
        }
        case 'sendPresence': {
          const s = this.runner.session(connectionId);
          if (!s) return { ok: false, notHere: true };
          if (s.status !== 'CONNECTED') return { ok: false, code: 'ERR_WAPP_NOT_INITIALIZED' };
          if (typeof cmd.to !== 'string' || !cmd.to || !isChatPresence(cmd.state)) return { ok: false, code: 'ERR_VALIDATION' };
          try {
            await s.provider.sendPresence(chatAddress(cmd.to), cmd.state);
          } catch (err) {
            if (err instanceof ProviderClosedError) throw err;
            // a presence is worth a few seconds: one WhatsApp did not take is not tried again
            this.logger.warn({ err, connectionId }, 'WhatsApp did not take a presence');
            return { ok: false, code: 'ERR_SERVICE_UNAVAILABLE', status: 503 };
          }
          return { ok: true };
        }
        case 'sandboxPresence': {
          const s = this.runner.session(connectionId);
          if (!s) return { ok: false, notHere: true };
          if (!hasSandboxAbilities(s.provider))
            return { ok: false, code: 'ERR_VALIDATION', message: 'This connection is not a sandbox connection.' };
          if (s.status !== 'CONNECTED') return { ok: false, code: 'ERR_WAPP_NOT_INITIALIZED' };
          if (typeof cmd.from !== 'string' || !CALLER.test(cmd.from) || !isChatPresence(cmd.state))
            return { ok: false, code: 'ERR_VALIDATION' };
          await s.provider.presenceFrom(cmd.from, cmd.state);
          return { ok: true };
        }
        case 'sandboxPresences': {
          const s = this.runner.session(connectionId);
          if (!s) return { ok: false, notHere: true };
          if (!hasSandboxAbilities(s.provider))
            return { ok: false, code: 'ERR_VALIDATION', message: 'This connection is not a sandbox connection.' };
          return { ok: true, result: { presences: s.provider.presencesSent() } };
        }
        case 'sandboxProfilePicture': {
          const s = this.runner.session(connectionId);
          if (!s) return { ok: false, notHere: true };
          if (!hasSandboxAbilities(s.provider))
            return { ok: false, code: 'ERR_VALIDATION', message: 'This connection is not a sandbox connection.' };
          if (typeof cmd.number !== 'string' || !/^\d{8,20}$/.test(cmd.number)) return { ok: false, code: 'ERR_VALIDATION' };
          s.provider.setProfilePicture(cmd.number, typeof cmd.url === 'string' && cmd.url ? cmd.url : null);
          return { ok: true };
        }
        case 'sandboxUnpair':
          return await this.runner.exclusive(connectionId, async (running) => {
            const s = this.runner.session(connectionId);
            if (!running || !s) return { ok: false, notHere: true };
            if (!hasSandboxAbilities(s.provider))
              return { ok: false, code: 'ERR_VALIDATION', message: 'This connection is not a sandbox connection.' };
            // the next start (a new pairing, as the "new QR" button's) waits for a pairing
            s.provider.unpair();
            const row = await this.store.byId(connectionId);
            await this.runner.stop(connectionId, { release: !row });
            if (!row) return { ok: false, code: 'ERR_NO_WAPP_FOUND' };
            await this.runner.launch(row, { fresh: true, epoch: s.epoch });
            return { ok: true };
          });
        case 'sandboxHistory': {
          const s = this.runner.session(connectionId);
          if (!s) return { ok: false, notHere: true };
          if (!hasSandboxAbilities(s.provider))
            return { ok: false, code: 'ERR_VALIDATION', message: 'This connection is not a sandbox connection.' };
          if (s.status !== 'CONNECTED') return { ok: false, code: 'ERR_WAPP_NOT_INITIALIZED' };
          const contacts = Array.isArray(cmd.contacts) ? cmd.contacts : [];
          const messages = Array.isArray(cmd.messages) ? cmd.messages : [];
          if (contacts.length > SANDBOX_HISTORY_MAX || messages.length > SANDBOX_HISTORY_MAX) return { ok: false, code: 'ERR_VALIDATION' };
          const ids = await s.provider.historySync({ contacts, messages });
          return { ok: true, result: { contacts: contacts.length, ids } satisfies SandboxHistoryResponse };
        }
        case 'edit':
        case 'delete': {
          const s = this.runner.session(connectionId);
          if (!s) return { ok: false, notHere: true };
          if (s.status !== 'CONNECTED') return { ok: false, code: 'ERR_WAPP_NOT_INITIALIZED' };
          const failed = cmd.action === 'edit' ? 'ERR_EDITING_WAPP_MSG' : 'ERR_DELETE_WAPP_MSG';
          if (typeof cmd.to !== 'string' || !cmd.to || typeof cmd.waMessageId !== 'string' || !cmd.waMessageId)
            return { ok: false, code: failed };
          const to = chatAddress(cmd.to);
          const message = { id: cmd.waMessageId, fromMe: cmd.fromMe === true };
          try {
            if (cmd.action === 'edit') await s.provider.editMessage(to, message, String(cmd.text ?? ''));
            else await s.provider.deleteMessage(to, message);
          } catch (err) {
            if (err instanceof ProviderClosedError) throw err;
            this.logger.warn({ err, connectionId, action: cmd.action }, 'WhatsApp refused a message change');
            return { ok: false, code: failed };
          }
          return { ok: true };
        }
        default:
          return { ok: false, code: 'ERR_VALIDATION', message: 'unknown session command' };
      }
    } catch (err) {
      if (err instanceof DomainError) return { ok: false, code: err.code, message: err.message, status: err.status };
      if (err instanceof ProviderClosedError) return { ok: false, code: 'ERR_WAPP_NOT_INITIALIZED' };
      // NATS, Redis or PostgreSQL away: the caller may try again (503), nothing is broken
      if (isTransientError(err)) return { ok: false, code: 'ERR_SERVICE_UNAVAILABLE', status: 503 };
      this.logger.error({ err, connectionId, action: cmd.action }, 'session command failed');
      return { ok: false, code: 'ERR_INTERNAL' };
    }
  }
}

/** A pairing code as WhatsApp shows it on the phone: its 8 characters in two groups, `XXXX-XXXX`. */
export function pairingCodeShown(code: string): string {
  const c = code.replace(/[^0-9A-Za-z]/g, '').toUpperCase();
  return c.length === 8 ? `${c.slice(0, 4)}-${c.slice(4)}` : c;
}
