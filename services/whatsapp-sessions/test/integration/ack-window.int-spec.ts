import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { proto } from '@whiskeysockets/baileys';
import { WaSubjects, type WaAcks } from '@wa/contracts';
import { waitFor } from '@wa/testing';
import { createConnection, lastOn, storedOn, tokenFor, waitForStatus, type SessionsUnderTest, socketOf } from './harness.js';
import { scriptedSessionsSuite } from './scripted-socket.js';
import { SessionStore } from '../../src/runtime/session-store.repository.js';

/**
 * Status changes of sends are written together (issue 44 §3): the receipts WhatsApp tells one at a time within
 * ACK_WINDOW_MS make one `wa.ack` event per connection, and one statement for every session the process runs, at
 * Baileys' boundary, against the real NATS and PostgreSQL.
 */
let svc: SessionsUnderTest;
const { companies, sockets, created, svc: running } = scriptedSessionsSuite(2, { ACK_WINDOW_MS: '100' });
beforeAll(() => {
  svc = running();
});

/** A connected Baileys connection of the company, its scripted socket open. */
async function connected(companyId: number, phone: string) {
  const token = tokenFor(companyId);
  const c = await createConnection(svc, token, { name: `Baileys ${phone.slice(-4)}`, channel: 'baileys' });
  created.push({ id: c.id, token });
  const sock = await socketOf(sockets, c.id);
  sock.open(phone);
  await waitForStatus(svc, token, c.id, 'CONNECTED');
  return { c, sock };
}

const newId = () => `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
const receipt = (id: string, status: proto.WebMessageInfo.Status) => [
  { key: { remoteJid: '5511987650001@s.whatsapp.net', fromMe: true, id }, update: { status } },
];

describe('status changes of our sends', () => {
  it('told a receipt at a time within the window, reach the bus as one event holding them all', async () => {
    const companyId = companies[0]!;
    const { c, sock } = await connected(companyId, '5511944443333');

    const ids = [1, 2, 3].map(newId);
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

  it("of several sessions (two companies) in one window: one statement raises them all, each connection's own event", async () => {
    const a = await connected(companies[0]!, '5511944445555');
    const b = await connected(companies[1]!, '5511944446666');
    // what the two connections sent (as OutboundConsumer records a send)
    const sent = { a: [newId(), newId()], b: [newId()] };
    for (const [x, ids] of [
      [a, sent.a],
      [b, sent.b],
    ] as const)
      for (const id of ids)
        await svc.db.query(
          `INSERT INTO whatsapp.sent_messages ("connectionId", "companyId", "waMessageId", "to", body, state, ack) VALUES ($1, $2, $3, '5511987650001', 'oi', 'sent', 1)`,
          [x.c.id, x.c.companyId, id],
        );
    const store = svc.app.get(SessionStore);
    const raise = jest.spyOn(store, 'raiseAcks');
    try {
      a.sock.ev.emit('messages.update', receipt(sent.a[0]!, proto.WebMessageInfo.Status.DELIVERY_ACK));
      b.sock.ev.emit('messages.update', receipt(sent.b[0]!, proto.WebMessageInfo.Status.READ));
      a.sock.ev.emit('messages.update', receipt(sent.a[1]!, proto.WebMessageInfo.Status.SERVER_ACK));
      a.sock.ev.emit('messages.update', receipt(sent.a[0]!, proto.WebMessageInfo.Status.READ));
      const stored = async () =>
        (
          (await svc.db.query(`SELECT "waMessageId" AS id, ack FROM whatsapp.sent_messages WHERE "waMessageId" = ANY($1) ORDER BY id`, [
            [...sent.a, ...sent.b],
          ])) as Array<{ id: string; ack: number }>
        ).map((r) => [r.id, r.ack]);
      await waitFor(async () => (await stored()).every(([, ack]) => Number(ack) > 1), { timeoutMs: 5000 });
      expect(new Map(await stored())).toEqual(
        new Map([
          [sent.a[0], 4],
          [sent.a[1], 2],
          [sent.b[0], 4],
        ]),
      );
      // the four receipts of both connections, in one statement
      expect(raise).toHaveBeenCalledTimes(1);
      // each connection hears only of its own sends, in one event
      const subjectA = WaSubjects.acks(a.c.companyId, a.c.id);
      const subjectB = WaSubjects.acks(b.c.companyId, b.c.id);
      await waitFor(async () => (await storedOn(svc.jsm, subjectA)) > 0 && (await storedOn(svc.jsm, subjectB)) > 0, { timeoutMs: 5000 });
      expect([await storedOn(svc.jsm, subjectA), await storedOn(svc.jsm, subjectB)]).toEqual([1, 1]);
      expect((await lastOn<WaAcks>(svc.jsm, subjectA)).data).toEqual({
        companyId: a.c.companyId,
        connectionId: a.c.id,
        at: expect.any(Number),
        acks: [
          { waMessageId: sent.a[0], ack: 3 },
          { waMessageId: sent.a[1], ack: 2 },
          { waMessageId: sent.a[0], ack: 4 },
        ],
      });
      expect((await lastOn<WaAcks>(svc.jsm, subjectB)).data).toEqual({
        companyId: b.c.companyId,
        connectionId: b.c.id,
        at: expect.any(Number),
        acks: [{ waMessageId: sent.b[0], ack: 4 }],
      });
    } finally {
      raise.mockRestore();
    }
  });
});
