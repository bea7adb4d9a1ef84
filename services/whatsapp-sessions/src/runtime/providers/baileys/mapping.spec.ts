import { describe, expect, it } from '@jest/globals';
import { Boom } from '@hapi/boom';
import { DisconnectReason, proto, type WAMessage, type WAMessageUpdate } from '@whiskeysockets/baileys';
import { chatAddress } from '../chat-address.js';
import {
  closeCode,
  connectionIntent,
  contactCardOf,
  jidOf,
  jidToContact,
  lidPair,
  lidPairsOf,
  mediaOf,
  toAcks,
  toInboundMessage,
} from './mapping.js';

const ctx = { companyId: 7, connectionId: 42 };

/** A message as Baileys hands it over: a decoded proto.WebMessageInfo. */
function wa(obj: Record<string, unknown>): WAMessage {
  return proto.WebMessageInfo.fromObject(obj) as WAMessage;
}

describe('toInboundMessage', () => {
  it('maps a plain text message', () => {
    const m = wa({
      key: { remoteJid: '5511999990001@s.whatsapp.net', fromMe: false, id: '3EB0AAAABBBBCCCCDDDD' },
      pushName: 'Maria',
      messageTimestamp: 1_700_000_000,
      message: { conversation: 'Olá' },
    });
    expect(toInboundMessage(m, ctx)).toEqual({
      companyId: 7,
      connectionId: 42,
      waMessageId: '3EB0AAAABBBBCCCCDDDD',
      from: '5511999990001',
      fromName: 'Maria',
      body: 'Olá',
      mediaType: 'chat',
      fromMe: false,
      isGroup: false,
      timestamp: 1_700_000_000_000,
      quotedWaMessageId: null,
    });
  });

  it('maps an extended text answering another message, with a Long timestamp', () => {
    const m = wa({
      key: { remoteJid: '5511999990002@s.whatsapp.net', fromMe: false, id: 'ABC' },
      messageTimestamp: 1_700_000_123,
      message: {
        extendedTextMessage: { text: 'sim, pode ser', contextInfo: { stanzaId: 'QUOTED1', participant: '5511888887777@s.whatsapp.net' } },
      },
    });
    expect(typeof m.messageTimestamp).toBe('object'); // protobuf's uint64: a Long
    expect(toInboundMessage(m, ctx)).toMatchObject({
      body: 'sim, pode ser',
      mediaType: 'chat',
      quotedWaMessageId: 'QUOTED1',
      timestamp: 1_700_000_123_000,
      fromName: '',
    });
  });

  it('maps a group message to the group id', () => {
    const m = wa({
      key: { remoteJid: '120363025246125486@g.us', fromMe: false, id: 'G1', participant: '5511999990003@s.whatsapp.net' },
      pushName: 'Ana',
      message: { conversation: 'bom dia, grupo' },
    });
    expect(toInboundMessage(m, ctx)).toMatchObject({ from: '120363025246125486', isGroup: true, fromName: 'Ana', body: 'bom dia, grupo' });
  });

  it('takes the phone number of a LID-addressed chat from remoteJidAlt, and drops the device part', () => {
    const lid = wa({ key: { remoteJid: '123456789012345@lid', fromMe: false, id: 'L1' }, message: { conversation: 'oi' } });
    lid.key.remoteJidAlt = '5511999990004@s.whatsapp.net';
    expect(toInboundMessage(lid, ctx)).toMatchObject({ from: '5511999990004', fromLid: '123456789012345' });
    // a chat by number with its LID beside it (WhatsApp sends both ways round)
    const pn = wa({ key: { remoteJid: '5511999990007@s.whatsapp.net', fromMe: false, id: 'P1' }, message: { conversation: 'oi' } });
    pn.key.remoteJidAlt = '223456789012345@lid';
    expect(toInboundMessage(pn, ctx)).toMatchObject({ from: '5511999990007', fromLid: '223456789012345' });
    const device = wa({ key: { remoteJid: '5511999990005:12@s.whatsapp.net', fromMe: false, id: 'D1' }, message: { conversation: 'oi' } });
    expect(toInboundMessage(device, ctx)?.from).toBe('5511999990005');
  });

  it('names a bare LID by its address, never its digits as a phone number', () => {
    const bare = wa({
      key: { remoteJid: '323456789012345@lid', fromMe: false, id: 'B1' },
      pushName: 'Lia',
      message: { conversation: 'oi' },
    });
    const m = toInboundMessage(bare, ctx);
    expect(m).toMatchObject({ from: '323456789012345@lid', fromName: 'Lia', isGroup: false });
    expect(m?.fromLid).toBeUndefined();
  });

  it('keeps messages typed on the phone itself as fromMe, for the contact they went to', () => {
    const m = wa({
      key: { remoteJid: '5511999990006@s.whatsapp.net', fromMe: true, id: 'ME1' },
      message: { conversation: 'enviado do celular' },
    });
    expect(toInboundMessage(m, ctx)).toMatchObject({ fromMe: true, from: '5511999990006', body: 'enviado do celular' });
  });

  it('unwraps ephemeral and view-once wrappers and maps media with their captions', () => {
    const m = wa({
      key: { remoteJid: '5511999990007@s.whatsapp.net', id: 'E1' },
      message: { ephemeralMessage: { message: { imageMessage: { caption: 'foto do produto', mimetype: 'image/jpeg' } } } },
    });
    expect(toInboundMessage(m, ctx)).toMatchObject({ mediaType: 'image', body: 'foto do produto' });
    const loc = wa({
      key: { remoteJid: '5511999990007@s.whatsapp.net', id: 'E2' },
      message: { locationMessage: { degreesLatitude: -23.5, degreesLongitude: -46.6 } },
    });
    expect(toInboundMessage(loc, ctx)).toMatchObject({ mediaType: 'locationMessage', body: '-23.5,-46.6' });
    const audio = wa({
      key: { remoteJid: '5511999990007@s.whatsapp.net', id: 'E3' },
      message: { audioMessage: { seconds: 3, ptt: true } },
    });
    expect(toInboundMessage(audio, ctx)).toMatchObject({ mediaType: 'audio', body: '' });
  });

  it('maps a reaction as one on the message it reacts to (an empty emoji takes it away); one without its message is ignored', () => {
    const jid = '5511999990009@s.whatsapp.net';
    expect(
      toInboundMessage(wa({ key: { remoteJid: jid, id: 'R1' }, message: { reactionMessage: { text: '👍', key: { id: 'X' } } } }), ctx),
    ).toMatchObject({
      waMessageId: 'R1',
      from: '5511999990009',
      body: '👍',
      mediaType: 'chat',
      reaction: { waMessageId: 'X', emoji: '👍' },
    });
    expect(
      toInboundMessage(wa({ key: { remoteJid: jid, id: 'R2' }, message: { reactionMessage: { text: '', key: { id: 'X' } } } }), ctx),
    ).toMatchObject({
      body: '',
      reaction: { waMessageId: 'X', emoji: '' },
    });
    expect(toInboundMessage(wa({ key: { remoteJid: jid, id: 'R3' }, message: { reactionMessage: { text: '👍' } } }), ctx)).toBeNull();
  });

  it('reads a vCard as a contact card: FN (else N) and the numbers, WhatsApp’s waid first', () => {
    expect(contactCardOf('BEGIN:VCARD\nFN:Ana\nTEL;waid=5511912345678:+55 11 91234-5678\nTEL:+1 (555) 010-9999\nEND:VCARD')).toEqual({
      name: 'Ana',
      numbers: ['5511912345678', '15550109999'],
    });
    expect(contactCardOf('BEGIN:VCARD\r\nN:Souza;Ana;;;\r\nEND:VCARD')).toEqual({ name: 'Ana Souza', numbers: [] });
    expect(contactCardOf('', 'Sem cartão')).toEqual({ name: 'Sem cartão', numbers: [] });
  });

  it('ignores status updates, broadcasts, newsletters, stubs, protocol messages and empty texts', () => {
    const ignored = [
      wa({
        key: { remoteJid: 'status@broadcast', id: 'S1', participant: '5511999990008@s.whatsapp.net' },
        message: { conversation: 'meu status' },
      }),
      wa({ key: { remoteJid: '1234567890@broadcast', id: 'B1' }, message: { conversation: 'lista' } }),
      wa({ key: { remoteJid: '120363000000000000@newsletter', id: 'N1' }, message: { conversation: 'canal' } }),
      wa({
        key: { remoteJid: '120363025246125486@g.us', id: 'ST1' },
        messageStubType: proto.WebMessageInfo.StubType.GROUP_PARTICIPANT_ADD,
      }),
      wa({
        key: { remoteJid: '5511999990009@s.whatsapp.net', id: 'P1' },
        message: { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE } },
      }),
      wa({ key: { remoteJid: '5511999990009@s.whatsapp.net', id: 'T1' }, message: { conversation: '' } }),
      wa({ key: { remoteJid: '5511999990009@s.whatsapp.net' }, message: { conversation: 'sem id' } }),
    ];
    for (const m of ignored) expect(toInboundMessage(m, ctx)).toBeNull();
  });

  it('maps a CIPHERTEXT stub (a message Baileys could not decrypt) as waiting for its resend, addressed as any message', () => {
    // Baileys' key carries fields the proto lacks (remoteJidAlt): set on the decoded message, as Baileys does
    const stub = (key: Record<string, unknown>) => {
      const m = wa({
        pushName: 'Rita',
        messageTimestamp: 1_700_000_500,
        messageStubType: proto.WebMessageInfo.StubType.CIPHERTEXT,
        messageStubParameters: ['Bad MAC'],
      });
      m.key = { fromMe: false, id: 'C1', ...key };
      return m;
    };
    expect(toInboundMessage(stub({ remoteJid: '5511999990010@s.whatsapp.net' }), ctx)).toEqual({
      companyId: 7,
      connectionId: 42,
      waMessageId: 'C1',
      from: '5511999990010',
      fromName: 'Rita',
      body: '',
      mediaType: 'ciphertext',
      fromMe: false,
      isGroup: false,
      timestamp: 1_700_000_500_000,
      quotedWaMessageId: null,
      resend: 'waiting',
    });
    // LID-addressed with the number: the number's conversation
    expect(toInboundMessage(stub({ remoteJid: '423456789012399@lid', remoteJidAlt: '5511999990011@s.whatsapp.net' }), ctx)).toMatchObject({
      from: '5511999990011',
      resend: 'waiting',
    });
    // a group's: the group's conversation
    expect(
      toInboundMessage(stub({ remoteJid: '120363025246125486@g.us', participant: '5511999990012@s.whatsapp.net' }), ctx),
    ).toMatchObject({
      from: '120363025246125486',
      isGroup: true,
      mediaType: 'ciphertext',
    });
    // a status nobody could decrypt is still no conversation's
    expect(toInboundMessage(stub({ remoteJid: 'status@broadcast', participant: '5511999990013@s.whatsapp.net' }), ctx)).toBeNull();
  });
});

describe('lidPairsOf: the LID ↔ number pairs in what WhatsApp sends', () => {
  it("reads them from messages' remoteJidAlt and participantAlt and from contacts, either way round", () => {
    const lidChat = wa({ key: { remoteJid: '423456789012345@lid', fromMe: false, id: 'X1' }, message: { conversation: 'oi' } });
    lidChat.key.remoteJidAlt = '5511999990010@s.whatsapp.net';
    const member = wa({
      key: { remoteJid: '120363025246125486@g.us', participant: '5511999990011@s.whatsapp.net', fromMe: false, id: 'X2' },
      message: { conversation: 'oi' },
    });
    member.key.participantAlt = '523456789012345@lid';
    const plain = wa({ key: { remoteJid: '5511999990012@s.whatsapp.net', fromMe: false, id: 'X3' }, message: { conversation: 'oi' } });
    const contacts = [
      { id: '623456789012345@lid', phoneNumber: '5511999990013@s.whatsapp.net' },
      { id: '5511999990014@s.whatsapp.net', lid: '723456789012345@lid' },
      { id: '5511999990015@s.whatsapp.net' },
      { id: '823456789012345@lid', phoneNumber: 'garbage' },
    ];
    expect(lidPairsOf([lidChat, member, plain], contacts)).toEqual([
      { lid: '423456789012345', pn: '5511999990010' },
      { lid: '523456789012345', pn: '5511999990011' },
      { lid: '623456789012345', pn: '5511999990013' },
      { lid: '723456789012345', pn: '5511999990014' },
    ]);
  });

  it("takes lid-mapping.update's pair only when each jid is what it says", () => {
    expect(lidPair('923456789012345@lid', '5511999990016@s.whatsapp.net')).toEqual({ lid: '923456789012345', pn: '5511999990016' });
    expect(lidPair('5511999990016@s.whatsapp.net', '923456789012345@lid')).toBeNull();
    expect(lidPair('923456789012345@lid', undefined)).toBeNull();
  });
});

describe('toAcks', () => {
  it('turns status changes of our messages into acks, and ignores the rest', () => {
    const updates: WAMessageUpdate[] = [
      {
        key: { remoteJid: '5511999990001@s.whatsapp.net', fromMe: true, id: 'OUT1' },
        update: { status: proto.WebMessageInfo.Status.SERVER_ACK },
      },
      {
        key: { remoteJid: '5511999990001@s.whatsapp.net', fromMe: true, id: 'OUT1' },
        update: { status: proto.WebMessageInfo.Status.DELIVERY_ACK },
      },
      {
        key: { remoteJid: '5511999990001@s.whatsapp.net', fromMe: true, id: 'OUT1' },
        update: { status: proto.WebMessageInfo.Status.READ },
      },
      {
        key: { remoteJid: '5511999990001@s.whatsapp.net', fromMe: false, id: 'IN1' },
        update: { status: proto.WebMessageInfo.Status.READ },
      },
      {
        key: { remoteJid: '5511999990001@s.whatsapp.net', fromMe: true, id: 'OUT2' },
        update: { status: proto.WebMessageInfo.Status.ERROR },
      },
      { key: { remoteJid: '5511999990001@s.whatsapp.net', fromMe: true, id: 'OUT3' }, update: { starred: true } },
    ];
    expect(toAcks(updates, ctx, 1000)).toEqual([
      { contact: '5511999990001', ack: { companyId: 7, connectionId: 42, waMessageId: 'OUT1', ack: 2, at: 1000 } },
      { contact: '5511999990001', ack: { companyId: 7, connectionId: 42, waMessageId: 'OUT1', ack: 3, at: 1000 } },
      { contact: '5511999990001', ack: { companyId: 7, connectionId: 42, waMessageId: 'OUT1', ack: 4, at: 1000 } },
    ]);
  });
});

describe('connection updates', () => {
  it('shows the QR code, pairing, the connected number and what to do on close', () => {
    expect(connectionIntent({ connection: 'connecting' })).toEqual({ kind: 'none' });
    expect(connectionIntent({ qr: '2@abc,def,ghi' })).toEqual({ kind: 'status', status: 'qrcode', qrcode: '2@abc,def,ghi' });
    expect(connectionIntent({ isNewLogin: true })).toEqual({ kind: 'status', status: 'PAIRING', qrcode: '' });
    expect(connectionIntent({ connection: 'open', me: { id: '5511999990001:7@s.whatsapp.net' } })).toEqual({
      kind: 'status',
      status: 'CONNECTED',
      qrcode: '',
      number: '5511999990001',
    });
    const closed = (statusCode?: number) => ({
      connection: 'close' as const,
      lastDisconnect: { error: statusCode ? new Boom('closed', { statusCode }) : new Error('socket hang up'), date: new Date() },
    });
    // a close is told with WhatsApp's code (the Boom's status code); what it means is the disconnect table's
    expect(connectionIntent(closed(DisconnectReason.loggedOut))).toEqual({ kind: 'close', code: 401 });
    expect(connectionIntent(closed(DisconnectReason.forbidden))).toEqual({ kind: 'close', code: 403 });
    expect(connectionIntent(closed(DisconnectReason.restartRequired))).toEqual({ kind: 'close', code: 515 });
    expect(connectionIntent(closed(DisconnectReason.connectionLost))).toEqual({ kind: 'close', code: 408 });
    expect(connectionIntent(closed())).toEqual({ kind: 'close' });
    expect(closeCode(closed(DisconnectReason.badSession).lastDisconnect)).toBe(500);
    expect(closeCode(closed(DisconnectReason.connectionReplaced).lastDisconnect)).toBe(440);
    expect(closeCode(undefined)).toBeUndefined();
  });
});

describe('jids', () => {
  it('goes between jids and contacts', () => {
    expect(jidToContact('5511999990001@s.whatsapp.net')).toBe('5511999990001');
    expect(jidToContact('5511999990001:3@s.whatsapp.net')).toBe('5511999990001');
    // a send's address (our ids, see chat-address.ts) at the jid WhatsApp knows it by
    const jidOfTo = (to: string) => jidOf(chatAddress(to));
    expect(jidOfTo('5511999990001')).toBe('5511999990001@s.whatsapp.net');
    expect(jidOfTo('+55 11 99999 0001')).toBe('5511999990001@s.whatsapp.net');
    expect(jidOfTo('120363025246125486')).toBe('120363025246125486@g.us');
    expect(jidOfTo('5511999990001-1612345678')).toBe('5511999990001-1612345678@g.us');
    expect(jidOfTo('123@lid')).toBe('123@lid');
    expect(jidOf({ kind: 'lid', id: '123456789012345' })).toBe('123456789012345@lid');
  });
});

describe('mediaOf: the type a received file is kept as (the sender declares it; nothing checks the bytes)', () => {
  const msg = (message: Record<string, unknown>) => ({ key: { remoteJid: '5511999990001@s.whatsapp.net', id: 'X1' }, message }) as never;

  it('keeps pictures, videos and audio to types of their kind', () => {
    expect(mediaOf(msg({ imageMessage: { url: 'u', mimetype: 'image/png' } }))).toEqual({ mimetype: 'image/png', fileName: null });
    expect(mediaOf(msg({ imageMessage: { url: 'u', mimetype: 'image/svg+xml' } }))?.mimetype).toBe('image/jpeg');
    expect(mediaOf(msg({ imageMessage: { url: 'u', mimetype: 'text/html' } }))?.mimetype).toBe('image/jpeg');
    expect(mediaOf(msg({ audioMessage: { url: 'u', mimetype: 'audio/ogg; codecs=opus' } }))?.mimetype).toBe('audio/ogg');
    expect(mediaOf(msg({ videoMessage: { url: 'u', mimetype: 'application/javascript' } }))?.mimetype).toBe('video/mp4');
  });

  it('keeps a document as its declared type unless a browser would run it', () => {
    expect(mediaOf(msg({ documentMessage: { url: 'u', mimetype: 'application/pdf', fileName: 'a.pdf' } }))).toEqual({
      mimetype: 'application/pdf',
      fileName: 'a.pdf',
    });
    expect(mediaOf(msg({ documentMessage: { url: 'u', mimetype: 'text/html', fileName: 'x.html' } }))?.mimetype).toBe(
      'application/octet-stream',
    );
    expect(mediaOf(msg({ documentMessage: { url: 'u', mimetype: 'image/svg+xml', fileName: 'x.svg' } }))?.mimetype).toBe(
      'application/octet-stream',
    );
    expect(mediaOf(msg({ documentMessage: { url: 'u', fileName: 'x' } }))?.mimetype).toBe('application/octet-stream');
    expect(mediaOf(msg({ conversation: 'oi' }))).toBeNull();
  });
});
