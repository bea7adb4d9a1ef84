import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { proto } from '@whiskeysockets/baileys';
import { WaSubjects, type WaAcks } from '@wa/contracts';
import { waitFor } from '@wa/testing';
import { createConnection, lastOn, storedOn, tokenFor, waitForStatus, type SessionsUnderTest, socketOf } from './harness.js';
import { scriptedSessionsSuite } from './scripted-socket.js';

/**
 * Status changes of a session's sends are written together (issue 44 §3): the receipts WhatsApp tells one at a time
 * within ACK_WINDOW_MS make one `wa.ack` event (and one statement), at Baileys' boundary, against the real NATS.
 */
let svc: SessionsUnderTest;
const { companies, sockets, created, svc: running } = scriptedSessionsSuite(1, { ACK_WINDOW_MS: '100' });
beforeAll(() => {
  svc = running();
});

describe('status changes of our sends', () => {
  it('told a receipt at a time within the window, reach the bus as one event holding them all', async () => {
    const companyId = companies[0]!;
    const token = tokenFor(companyId);
    const c = await createConnection(svc, token, { name: 'Baileys', channel: 'baileys' });
    created.push({ id: c.id, token });
    const sock = await socketOf(sockets, c.id);
    sock.open('5511944443333');
    await waitForStatus(svc, token, c.id, 'CONNECTED');

    const ids = [1, 2, 3].map(() => `3EB0${randomBytes(8).toString('hex').toUpperCase()}`);
    const receipt = (id: string, status: proto.WebMessageInfo.Status) => [
      { key: { remoteJid: '5511987650001@s.whatsapp.net', fromMe: true, id }, update: { status } },
    ];
    sock.ev.emit('messages.update', receipt(ids[0]!, proto.WebMessageInfo.Status.SERVER_ACK));
    sock.ev.emit('messages.update', receipt(ids[1]!, proto.WebMessageInfo.Status.SERVER_ACK));
    sock.ev.emit('messages.update', receipt(ids[0]!, proto.WebMessageInfo.Status.DELIVERY_ACK));
    sock.ev.emit('messages.update', receipt(ids[2]!, proto.WebMessageInfo.Status.READ));
    const subject = WaSubjects.acks(companyId, c.id);
    await waitFor(async () => (await storedOn(svc.jsm, subject)) > 0, { timeoutMs: 5000 });
    await new Promise((r) => setTimeout(r, 300));
    expect(await storedOn(svc.jsm, subject)).toBe(1);
    const event = await lastOn<WaAcks>(svc.jsm, subject);
    expect(event.data.acks).toEqual([
      { waMessageId: ids[0], ack: 2 },
      { waMessageId: ids[1], ack: 2 },
      { waMessageId: ids[0], ack: 3 },
      { waMessageId: ids[2], ack: 4 },
    ]);
  });
});
