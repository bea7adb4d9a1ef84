import { EventEmitter } from 'node:events';
import { Boom } from '@hapi/boom';
import { afterAll, beforeAll } from '@jest/globals';
import { DisconnectReason, type UserFacingSocketConfig, type WACallEvent } from '@whiskeysockets/baileys';
import type { BaileysSocket } from '../../src/runtime/providers/baileys/baileys.provider.js';
import { cleanup, companyPool, startSessions, type SessionsUnderTest } from './harness.js';

/**
 * Stands in for Baileys' socket where WhatsApp cannot be reached: a test emits on `ev` what WhatsApp would make the
 * socket emit, in Baileys' own shapes, and reads what the provider asked of it. Sends fail as on a closed connection;
 * WhatsApp's directory knows nobody. Shared by the test files that drive a Baileys session through the runner.
 */
export class ScriptedSocket {
  readonly ev = new EventEmitter();
  user: { id: string; name?: string } | undefined;
  readonly createdAt = Date.now();
  ended = false;
  /** the calls the provider rejected: Baileys' `rejectCall(callId, callFrom)` arguments, in order */
  readonly rejectedCalls: Array<{ callId: string; callFrom: string }> = [];
  /** the presences the provider sent: Baileys' `sendPresenceUpdate(type, toJid)` arguments, in order */
  readonly presencesSent: Array<{ type: string; toJid?: string }> = [];
  /** the chats whose presence the provider subscribed to (`presenceSubscribe(toJid)`), in order */
  readonly presenceSubscriptions: string[] = [];

  constructor(readonly config: UserFacingSocketConfig) {}

  async sendMessage(): Promise<never> {
    throw new Boom('Connection Closed', { statusCode: DisconnectReason.connectionClosed });
  }

  async onWhatsApp() {
    return [];
  }

  async updateMediaMessage(): Promise<never> {
    throw new Boom('media gone', { statusCode: 404 });
  }

  async rejectCall(callId: string, callFrom: string): Promise<void> {
    this.rejectedCalls.push({ callId, callFrom });
  }

  async sendPresenceUpdate(type: string, toJid?: string): Promise<void> {
    this.presencesSent.push({ type, toJid });
  }

  async presenceSubscribe(toJid: string): Promise<void> {
    this.presenceSubscriptions.push(toJid);
  }

  async end() {
    this.ended = true;
  }

  async logout() {}

  /** WhatsApp opens the session for the phone `number` (Baileys' `connection.update` open, with the socket's user). */
  open(number: string) {
    this.user = { id: `${number}:2@s.whatsapp.net` };
    this.ev.emit('connection.update', { connection: 'open' });
  }

  /** WhatsApp closes the socket: Baileys' own end, a Boom with the code (none: a socket error) */
  close(statusCode?: number): number {
    const error = statusCode === undefined ? new Error('socket hang up') : new Boom('Stream Errored', { statusCode });
    this.ev.emit('connection.update', { connection: 'close', lastDisconnect: { error, date: new Date() } });
    return Date.now();
  }

  /** WhatsApp tells of calls (Baileys' `call` event: an offer, then ringing, accept, reject, timeout or terminate). */
  call(...events: WACallEvent[]): void {
    this.ev.emit('call', events);
  }
}

/**
 * whatsapp-sessions started once for a test file against the real servers, every Baileys session it opens on a
 * ScriptedSocket (in `sockets`, in the order opened; sandbox sessions as usual), for the `size` companies of its
 * pool; stopped after the file, the connections listed in `created` deleted first. `svc()` is the running service.
 */
export function scriptedSessionsSuite(
  size: number,
  overrides: Record<string, string> = {},
): { companies: number[]; sockets: ScriptedSocket[]; created: Array<{ id: number; token: string }>; svc: () => SessionsUnderTest } {
  const companies = companyPool(size);
  const sockets: ScriptedSocket[] = [];
  const created: Array<{ id: number; token: string }> = [];
  let running: SessionsUnderTest | undefined;
  beforeAll(async () => {
    running = await startSessions(companies, overrides, {
      baileysSocketFactory: (config: UserFacingSocketConfig) => {
        const s = new ScriptedSocket(config);
        sockets.push(s);
        return s as unknown as BaileysSocket;
      },
    });
  });
  afterAll(async () => {
    if (!running) return;
    await cleanup(running, created);
    await running.close();
  });
  const svc = () => {
    if (!running) throw new Error('whatsapp-sessions is not started yet');
    return running;
  };
  return { companies, sockets, created, svc };
}
