import { EventEmitter } from 'node:events';
import { randomBytes, randomInt } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Boom } from '@hapi/boom';
import {
  generateWAMessage,
  proto,
  type AnyMessageContent,
  type MiscMessageGenerationOptions,
  type UserFacingSocketConfig,
  type WAMessage,
  type WAMessageKey,
} from '@whiskeysockets/baileys';
import { sessionCommandSubject, WaSubjects, type WaOutboundSend } from '@wa/contracts';
import { request } from '@wa/event-bus';
import { MediaStorage } from '@wa/server-kit';
import { pngFile, waitFor } from '@wa/testing';
import { pino } from 'pino';
import type { BaileysSocket } from '../../src/runtime/providers/baileys/baileys.provider.js';
import { SentContents } from '../../src/runtime/providers/baileys/sent-contents.js';
import { ProviderFactory } from '../../src/runtime/providers/provider-factory.js';
import {
  cleanup,
  companyPool,
  createConnection,
  startSessions,
  tokenFor,
  waitForStatus,
  type SessionsUnderTest,
  socketOf,
  socketsOf,
} from './harness.js';

const silent = pino({ level: 'silent' });

/**
 * Stands in for Baileys' socket where WhatsApp cannot be reached. A send is built as Baileys' own `sendMessage`
 * builds it (`generateWAMessage`: the text's message, a file encrypted with a new media key and "uploaded" to
 * WhatsApp's media servers) and answered with that WAMessage; only the relay to WhatsApp is left out.
 */
class ScriptedSocket {
  readonly ev = new EventEmitter();
  user: { id: string; name?: string } | undefined;
  /** what Baileys built for each send, in order */
  readonly built: WAMessage[] = [];

  constructor(readonly config: UserFacingSocketConfig) {}

  async sendMessage(jid: string, content: AnyMessageContent, options: MiscMessageGenerationOptions = {}) {
    const built = await generateWAMessage(jid, content, {
      logger: silent,
      userJid: this.user!.id,
      upload: async () => {
        const directPath = `/v/t62.7118-24/${randomBytes(12).toString('hex')}.enc?ccb=11-4`;
        return { mediaUrl: `https://mmg.whatsapp.net${directPath}`, directPath };
      },
      ...options,
    });
    this.built.push(built);
    return built;
  }

  /** every number asked is on WhatsApp, under its own jid */
  async onWhatsApp(...numbers: string[]) {
    return numbers.map((n) => ({ jid: `${n}@s.whatsapp.net`, exists: true }));
  }

  async updateMediaMessage(): Promise<WAMessage> {
    throw new Boom('media gone', { statusCode: 404 });
  }

  async end() {}

  async logout() {}

  /** Baileys' `getMessage`, as its retry-receipt handling calls it: the receipt's chat, our message's id */
  ask(id: string, remoteJid: string): Promise<proto.IMessage | undefined> {
    const key: WAMessageKey = { remoteJid, fromMe: true, id };
    return this.config.getMessage!(key);
  }
}

const companies = companyPool(2);
let svc: SessionsUnderTest;
const sockets: ScriptedSocket[] = [];
const created: Array<{ id: number; token: string }> = [];

beforeAll(async () => {
  svc = await startSessions(
    companies,
    {},
    {
      baileysSocketFactory: (config) => {
        const s = new ScriptedSocket(config);
        sockets.push(s);
        return s as unknown as BaileysSocket;
      },
    },
  );
});

afterAll(async () => {
  await cleanup(svc, created);
  await svc?.close();
});

const wid = () => `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
const bytes = (m: proto.IMessage | null | undefined) => Buffer.from(proto.Message.encode(m ?? {}).finish());
const keptRows = async (connectionId: number, ids: string[]) =>
  (
    (await svc.db.query(
      `SELECT "waMessageId" FROM whatsapp.sent_contents WHERE "connectionId" = $1 AND "waMessageId" = ANY($2::varchar[])`,
      [connectionId, ids],
    )) as Array<{ waMessageId: string }>
  )
    .map((r) => r.waMessageId)
    .sort();

/** A CONNECTED baileys connection of the company, and its socket. */
async function connected(companyId: number): Promise<{ id: number; sock: ScriptedSocket }> {
  const token = tokenFor(companyId);
  const c = await createConnection(svc, token, { name: `Retries ${randomInt(1e9)}`, channel: 'baileys' });
  created.push({ id: c.id, token });
  const sock = await socketOf(sockets, c.id);
  sock.user = { id: `5511977${randomInt(100_000, 999_999)}:3@s.whatsapp.net`, name: 'Loja' };
  sock.ev.emit('connection.update', { connection: 'open' });
  await waitForStatus(svc, token, c.id, 'CONNECTED');
  return { id: c.id, sock };
}

/** Another provider of the connection, started with a socket of its own (a restart, or another process taking the session). */
async function restarted(companyId: number, connectionId: number) {
  const before = socketsOf(sockets, connectionId).length;
  const provider = svc.app.get(ProviderFactory).create({ id: connectionId, companyId, channel: 'baileys' });
  await provider.start();
  return { provider, sock: await socketOf(sockets, connectionId, before) };
}

describe("baileys: retry receipts answered from what the session sent (Baileys' getMessage)", () => {
  it('answers a sent text, a sent photo and an edit with the content Baileys built, after a restart; an unknown id or another chat: nothing', async () => {
    const companyId = companies[0]!;
    const { id: connectionId, sock } = await connected(companyId);
    const number = `55319${randomInt(10_000_000, 99_999_999)}`;
    const jid = `${number}@s.whatsapp.net`;

    const storage = svc.app.get(MediaStorage);
    const photo = pngFile({ size: 24, rgb: [200, 40, 40] });
    const key = `${companyId}/${randomBytes(8).toString('hex')}/peca.png`;
    await storage.put(key, Readable.from([photo]));
    const text: WaOutboundSend = {
      companyId,
      connectionId,
      waMessageId: wid(),
      to: number,
      body: 'Seu pedido saiu',
      ticketId: 1,
      messageId: 1,
    };
    const image: WaOutboundSend = {
      companyId,
      connectionId,
      waMessageId: wid(),
      to: number,
      body: 'a peça',
      ticketId: 1,
      messageId: 2,
      media: { key, mimetype: 'image/png', fileName: 'peca.png', size: photo.length, mediaType: 'image' },
    };
    for (const send of [text, image])
      await svc.bus.publish(WaSubjects.outbound(connectionId), send, { msgId: WaSubjects.outboundMsgId(send.waMessageId) });
    await waitFor(async () => sock.built.length === 2, { timeoutMs: 15_000 });
    const builtText = sock.built.find((m) => m.key.id === text.waMessageId)!;
    const builtImage = sock.built.find((m) => m.key.id === image.waMessageId)!;
    expect(builtImage.message?.imageMessage?.mediaKey?.length).toBe(32);
    await waitFor(async () => (await keptRows(connectionId, [text.waMessageId, image.waMessageId])).length === 2);

    // an edit is a message of its own (its own id), kept as well
    const edit = await request(
      svc.bus,
      sessionCommandSubject(connectionId),
      { action: 'edit', to: number, waMessageId: text.waMessageId, fromMe: true, text: 'Seu pedido saiu hoje' },
      { timeoutMs: 5000 },
    );
    expect(edit).toEqual({ ok: true });
    const builtEdit = sock.built[2]!;
    expect(builtEdit.message?.protocolMessage?.key?.id).toBe(text.waMessageId);

    // a new provider (the service restarted, or another process took the session): nothing in its memory
    const again = await restarted(companyId, connectionId);
    try {
      const answeredText = await again.sock.ask(text.waMessageId, jid);
      expect(bytes(answeredText).equals(bytes(builtText.message))).toBe(true);
      expect(answeredText?.extendedTextMessage?.text ?? answeredText?.conversation).toBe('Seu pedido saiu');

      // the photo as sent: the same key and address on WhatsApp's media servers, so the contact can fetch and decrypt it
      const answeredImage = await again.sock.ask(image.waMessageId, `${number}:2@s.whatsapp.net`);
      expect(bytes(answeredImage).equals(bytes(builtImage.message))).toBe(true);
      expect(answeredImage?.imageMessage).toMatchObject({
        mimetype: 'image/png',
        caption: 'a peça',
        url: builtImage.message!.imageMessage!.url,
      });
      expect(Buffer.from(answeredImage!.imageMessage!.mediaKey!).equals(Buffer.from(builtImage.message!.imageMessage!.mediaKey!))).toBe(
        true,
      );

      const answeredEdit = await again.sock.ask(builtEdit.key.id!, jid);
      expect(
        answeredEdit?.protocolMessage?.editedMessage?.conversation ??
          answeredEdit?.protocolMessage?.editedMessage?.extendedTextMessage?.text,
      ).toBe('Seu pedido saiu hoje');

      // the contact asking under its LID (no mapping to compare with): answered
      expect(bytes(await again.sock.ask(text.waMessageId, '123456789012345@lid')).equals(bytes(builtText.message))).toBe(true);
      // an id this connection never sent, or another contact asking for our message: nothing
      expect(await again.sock.ask(wid(), jid)).toBeUndefined();
      expect(await again.sock.ask(text.waMessageId, `55219${randomInt(10_000_000, 99_999_999)}@s.whatsapp.net`)).toBeUndefined();
      // the session still running answers too
      expect(bytes(await sock.ask(image.waMessageId, jid)).equals(bytes(builtImage.message))).toBe(true);
    } finally {
      await again.provider.end();
    }
  });

  it('forgets a message once the window is past: unanswered at once, its row deleted by the prune; the others stay', async () => {
    const companyId = companies[1]!;
    const { id: connectionId, sock } = await connected(companyId);
    const number = `55119${randomInt(10_000_000, 99_999_999)}`;
    const jid = `${number}@s.whatsapp.net`;
    const old: WaOutboundSend = {
      companyId,
      connectionId,
      waMessageId: wid(),
      to: number,
      body: 'Oferta de ontem',
      ticketId: 2,
      messageId: 3,
    };
    const fresh: WaOutboundSend = { ...old, waMessageId: wid(), body: 'Oferta de hoje' };
    for (const send of [old, fresh])
      await svc.bus.publish(WaSubjects.outbound(connectionId), send, { msgId: WaSubjects.outboundMsgId(send.waMessageId) });
    await waitFor(async () => (await keptRows(connectionId, [old.waMessageId, fresh.waMessageId])).length === 2, { timeoutMs: 15_000 });
    expect(await sock.ask(old.waMessageId, jid)).toBeDefined();

    // sent a day and an hour ago (the window is 24 h)
    expect(svc.env.SENT_MESSAGE_RETRY_WINDOW_MS).toBe(24 * 60 * 60_000);
    await svc.db.query(
      `UPDATE whatsapp.sent_contents SET "sentAt" = now() - interval '25 hours' WHERE "connectionId" = $1 AND "waMessageId" = $2`,
      [connectionId, old.waMessageId],
    );
    expect(await sock.ask(old.waMessageId, jid)).toBeUndefined();

    expect(await svc.app.get(SentContents).prune()).toBeGreaterThanOrEqual(1);
    expect(await keptRows(connectionId, [old.waMessageId, fresh.waMessageId])).toEqual([fresh.waMessageId]);
    expect(await sock.ask(old.waMessageId, jid)).toBeUndefined();
    const answered = await sock.ask(fresh.waMessageId, jid);
    expect(answered?.extendedTextMessage?.text ?? answered?.conversation).toBe('Oferta de hoje');
  });
});
