import { Injectable } from '@nestjs/common';
import type {
  ChatPresence,
  SandboxPresencesResponse,
  ConnectionStatus,
  PairingCodeResponse,
  SandboxCallItem,
  SandboxHistoryRequest,
  SandboxHistoryResponse,
  SandboxInboundRequest,
  SandboxOutboxItem,
} from '@wa/contracts';
import {
  checkMediaFile,
  currentContext,
  DomainError,
  inboundMediaKey,
  inboundMediaName,
  MediaStorage,
  readUploaded,
  type UploadedDiskFile,
} from '@wa/server-kit';
import { whatsappMessageId } from '@wa/domain';
import { sandboxAllowed, WhatsappSessionsEnv } from '../config/env.js';
import { ConnectionsRepository } from '../connections/connections.repository.js';
import type { ConnectionEntity } from '../database/entities/connection.entity.js';
import { SessionRuntime } from '../runtime/session-runtime.js';
import type { SandboxInboundDto } from './sessions.dto.js';

export interface SessionPlacement {
  connectionId: number;
  status: ConnectionStatus;
  /** the process holding the session (its lease), null when none does */
  owner: string | null;
}

/** A command travels as one NATS message (1 MB at most by default). */
const COMMAND_PART_BYTES = 256 * 1024;

function inParts<T>(items: T[], maxBytes: number): T[][] {
  const parts: T[][] = [];
  let part: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = Buffer.byteLength(JSON.stringify(item));
    if (part.length > 0 && bytes + size > maxBytes) {
      parts.push(part);
      part = [];
      bytes = 0;
    }
    part.push(item);
    bytes += size;
  }
  if (part.length > 0) parts.push(part);
  return parts;
}

/** `/whatsappsession/:id`: the caller's company's sessions, whichever process runs them. */
@Injectable()
export class SessionsService {
  constructor(
    private readonly connections: ConnectionsRepository,
    private readonly runtime: SessionRuntime,
    private readonly storage: MediaStorage,
    private readonly env: WhatsappSessionsEnv,
  ) {}

  async start(id: number): Promise<void> {
    await this.runtime.command((await this.mustFind(id)).id, { action: 'start' });
  }

  async restart(id: number): Promise<void> {
    await this.runtime.command((await this.mustFind(id)).id, { action: 'restart' });
  }

  async end(id: number): Promise<void> {
    await this.runtime.command((await this.mustFind(id)).id, { action: 'end' });
  }

  async placement(id: number): Promise<SessionPlacement> {
    const c = await this.mustFind(id);
    return { connectionId: c.id, status: c.status, owner: await this.runtime.holder(c.id) };
  }

  /** Delivers a message to the sandbox phone; answers once it is on JetStream. */
  async inbound(id: number, dto: SandboxInboundDto, file?: UploadedDiskFile): Promise<{ id: string }> {
    this.sandboxHooksOn();
    if (!file) {
      // an undecryptable message has no text (WhatsApp's resend brings it)
      if (needsBody(dto) && (!dto.body || !/\S/.test(dto.body)))
        throw new DomainError('ERR_VALIDATION', { details: [{ field: 'body', messages: ['Required'] }] }, 'body: Required');
      const [first] = await this.deliver(id, [dto]);
      return { id: first };
    }
    // the file is put where the phone's WhatsApp would hold it: the media storage, under the message's key
    const c = this.mustBeSandbox(await this.mustFind(id));
    const checked = await checkMediaFile(file, 'media');
    const waMessageId = dto.id ?? whatsappMessageId();
    const fileName = inboundMediaName(waMessageId, checked.mimetype, checked.mediaType === 'application' ? checked.fileName : null);
    const key = inboundMediaKey(c.companyId, c.id, waMessageId, fileName);
    const { size } = await this.storage.put(key, readUploaded(file));
    const [first] = await this.deliver(id, [
      { ...dto, id: waMessageId, body: dto.body ?? '', media: { key, mimetype: checked.mimetype, fileName, size } },
    ]);
    return { id: first };
  }

  /** Delivers messages to the sandbox phone in one upsert; answers once all are on JetStream. */
  async inboundBatch(id: number, messages: SandboxInboundDto[]): Promise<{ ids: string[] }> {
    this.sandboxHooksOn();
    const blank = messages.flatMap((m, i) =>
      needsBody(m) && (!m.body || !/\S/.test(m.body)) ? [{ field: `messages.${i}.body`, messages: ['Required'] }] : [],
    );
    if (blank.length > 0) throw new DomainError('ERR_VALIDATION', { details: blank }, blank.map((b) => `${b.field}: Required`).join('; '));
    return { ids: await this.deliver(id, messages) };
  }

  /** In parts that fit a NATS message when the session runs in another process; in order. */
  private async deliver(id: number, messages: SandboxInboundRequest[]): Promise<string[]> {
    // a session running here is the caller's company's connection when its company matches: no lookup
    // (the session itself refuses when it is not a sandbox); otherwise the connection is looked up
    const caller = currentContext()?.companyId;
    if (caller === undefined || this.runtime.localCompanyOf(id) !== caller) this.mustBeSandbox(await this.mustFind(id));
    const ids: string[] = [];
    for (const part of inParts(messages, COMMAND_PART_BYTES)) {
      const result = (await this.runtime.command(id, { action: 'inbound', messages: part })) as { ids: string[] };
      ids.push(...result.ids);
    }
    return ids;
  }

  async sandboxContacts(id: number, contacts: Array<{ number: string; name: string }>): Promise<{ count: number }> {
    this.sandboxHooksOn();
    const c = this.mustBeSandbox(await this.mustFind(id));
    await this.runtime.command(c.id, { action: 'sandboxContacts', contacts });
    return { count: contacts.length };
  }

  /** The customer `number` left WhatsApp: the sandbox phone refuses sends to it from now on, as WhatsApp does. */
  async sandboxLeave(id: number, number: string): Promise<{ number: string }> {
    this.sandboxHooksOn();
    const c = this.mustBeSandbox(await this.mustFind(id));
    await this.runtime.command(c.id, { action: 'sandboxLeave', number });
    return { number };
  }

  /** WhatsApp tells the sandbox phone which number a LID stands for: the company's LID map keeps it (a new pair is announced). */
  async sandboxLidMapping(id: number, lid: string, pn: string): Promise<{ lid: string; pn: string }> {
    this.sandboxHooksOn();
    const c = this.mustBeSandbox(await this.mustFind(id));
    if (c.status !== 'CONNECTED') throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
    await this.runtime.command(c.id, { action: 'sandboxLidMapping', lid, pn });
    return { lid, pn };
  }

  /** WhatsApp bans the sandbox phone's number: its session ends (logged out, reason `banned`). */
  async sandboxBan(id: number): Promise<void> {
    this.sandboxHooksOn();
    const c = this.mustBeSandbox(await this.mustFind(id));
    if (c.status !== 'CONNECTED') throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
    await this.runtime.command(c.id, { action: 'sandboxBan' });
  }

  /** WhatsApp closes the sandbox phone's session with `code` (Baileys' DisconnectReason); the disconnect table decides the rest. */
  async sandboxDisconnect(id: number, code: number): Promise<void> {
    this.sandboxHooksOn();
    const c = this.mustBeSandbox(await this.mustFind(id));
    if (c.status !== 'CONNECTED') throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
    await this.runtime.command(c.id, { action: 'sandboxDisconnect', code });
  }

  /** The sandbox phone loses its network for `seconds`; the disconnect table decides how the session comes back. */
  async sandboxOffline(id: number, seconds: number): Promise<void> {
    this.sandboxHooksOn();
    const c = this.mustBeSandbox(await this.mustFind(id));
    if (c.status !== 'CONNECTED') throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
    await this.runtime.command(c.id, { action: 'sandboxOffline', seconds });
  }

  /**
   * A pairing code for the phone `number` (digits with the country code), the alternative to the QR, answered as
   * WhatsApp shows it (XXXX-XXXX). The session must be waiting for a pairing (status qrcode): ERR_WAPP_NOT_INITIALIZED.
   */
  async pairingCode(id: number, number: string): Promise<PairingCodeResponse> {
    const c = await this.mustFind(id);
    if (c.status !== 'qrcode')
      throw new DomainError(
        'ERR_WAPP_NOT_INITIALIZED',
        { status: c.status },
        `The connection is not waiting for a pairing (it is ${c.status}).`,
      );
    return (await this.runtime.command(c.id, { action: 'pairingCode', number })) as PairingCodeResponse;
  }

  /** The profile picture the sandbox's WhatsApp answers for `number` from now on (null: none). */
  async sandboxProfilePicture(id: number, number: string, url: string | null): Promise<void> {
    this.sandboxHooksOn();
    const c = this.mustBeSandbox(await this.mustFind(id));
    await this.runtime.command(c.id, { action: 'sandboxProfilePicture', number, url });
  }

  /** WhatsApp's history sync reaches the sandbox phone; answers once its contacts are kept and its messages handled. */
  async sandboxHistory(id: number, sync: SandboxHistoryRequest): Promise<SandboxHistoryResponse> {
    this.sandboxHooksOn();
    const c = this.mustBeSandbox(await this.mustFind(id));
    const contacts = sync.contacts ?? [];
    const messages = sync.messages ?? [];
    return (await this.runtime.command(c.id, { action: 'sandboxHistory', contacts, messages })) as SandboxHistoryResponse;
  }

  /** The sandbox phone is unpaired: its session starts over waiting for a pairing (a QR shown; a pairing code pairs it). */
  async sandboxUnpair(id: number): Promise<void> {
    this.sandboxHooksOn();
    const c = this.mustBeSandbox(await this.mustFind(id));
    await this.runtime.command(c.id, { action: 'sandboxUnpair' });
  }

  async outboxPage(id: number, pageNumber: number): Promise<{ items: SandboxOutboxItem[]; hasMore: boolean }> {
    this.sandboxHooksOn();
    const c = this.mustBeSandbox(await this.mustFind(id));
    if (c.status !== 'CONNECTED') throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
    return this.runtime.sandboxOutbox(c.id, c.companyId, pageNumber);
  }

  /** A customer calls the sandbox phone; answers the call's id once its offer is on JetStream. */
  async sandboxCall(id: number, from: string, isVideo: boolean): Promise<{ callId: string }> {
    this.sandboxHooksOn();
    const c = this.mustBeSandbox(await this.mustFind(id));
    if (c.status !== 'CONNECTED') throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
    return (await this.runtime.command(c.id, { action: 'sandboxCall', from, isVideo })) as { callId: string };
  }

  /** A customer types or records in their chat with the sandbox phone, or stops (announced as Baileys' presence.update would be). */
  async sandboxPresence(id: number, from: string, state: ChatPresence): Promise<void> {
    this.sandboxHooksOn();
    const c = this.mustBeSandbox(await this.mustFind(id));
    if (c.status !== 'CONNECTED') throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
    await this.runtime.command(c.id, { action: 'sandboxPresence', from, state });
  }

  /** What the sandbox phone told chats of its user's presence, oldest first. */
  async sandboxPresences(id: number): Promise<SandboxPresencesResponse> {
    this.sandboxHooksOn();
    const c = this.mustBeSandbox(await this.mustFind(id));
    if (c.status !== 'CONNECTED') throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
    return (await this.runtime.command(c.id, { action: 'sandboxPresences' })) as SandboxPresencesResponse;
  }

  /** A page of the calls the sandbox phone got, newest first: each ringing, or rejected by the session. */
  async callsPage(id: number, pageNumber: number): Promise<{ items: SandboxCallItem[]; hasMore: boolean }> {
    this.sandboxHooksOn();
    const c = this.mustBeSandbox(await this.mustFind(id));
    return this.runtime.sandboxCalls(c.id, c.companyId, pageNumber);
  }

  /** The sandbox phone's hooks do not exist where the sandbox channel is off (production, see SANDBOX_CHANNEL). */
  private sandboxHooksOn(): void {
    if (!sandboxAllowed(this.env)) throw new DomainError('ERR_NOT_FOUND');
  }

  private async mustFind(id: number): Promise<ConnectionEntity> {
    const c = await this.connections.byId(id);
    if (!c) throw new DomainError('ERR_NO_WAPP_FOUND');
    return c;
  }

  private mustBeSandbox(c: ConnectionEntity): ConnectionEntity {
    if (c.channel !== 'sandbox') {
      throw new DomainError(
        'ERR_VALIDATION',
        { channel: c.channel },
        `Connection ${c.id} is not a sandbox connection (its channel is ${c.channel}).`,
      );
    }
    return c;
  }
}

/** A sandbox message that is text needs its text: not an undecryptable one, a location, contact cards or a reaction. */
function needsBody(m: SandboxInboundDto): boolean {
  return !m.undecryptable && !m.location && !m.vcards && !m.reaction;
}
