import { createHash, randomBytes, randomInt } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import {
  CampaignSubjects,
  NUMBER_CHECK_MANY_MAX,
  sessionCommandSubject,
  type CampaignSend,
  type ConnectionChangedEvent,
  type ConnectionSessionEvent,
  type SandboxOutboxItem,
  type WaAck,
  type WaAcks,
  type WhatsappDto,
} from '@wa/contracts';
import { request } from '@wa/event-bus';
import { MediaStorage } from '@wa/server-kit';
import { pngFile, waitFor } from '@wa/testing';
import { Collector, createConnection, fieldMessages, sessionsSuite, tokenFor, waitForStatus, type SessionsUnderTest } from './harness.js';

let svc: SessionsUnderTest;
const { companies, created } = sessionsSuite(7, (s) => (svc = s));
let next = 0;

const phone = () => `55119${String(randomInt(10_000_000, 99_999_999))}`;
const wid = () => `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;

/** A connected sandbox connection of a company of its own. */
async function sandbox(fields: Record<string, unknown> = {}): Promise<WhatsappDto & { token: string }> {
  const companyId = companies[next++]!;
  const token = tokenFor(companyId);
  const c = await createConnection(svc, token, { channel: 'sandbox', ...fields });
  created.push({ id: c.id, token });
  await waitForStatus(svc, token, c.id, 'CONNECTED');
  return { ...c, token };
}

async function outbox(c: { id: number; token: string }): Promise<SandboxOutboxItem[]> {
  const res = await svc.http.get(`/whatsappsession/${c.id}/sandbox/outbox`, { token: c.token });
  expect(res.status).toBe(200);
  return res.body.items as SandboxOutboxItem[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('sessions: the campaign lane (campaign.send.<company>.<connection>)', () => {
  it('sends each CampaignSend at once with its WhatsApp id, once even when published twice, acked as any send; a file too', async () => {
    const c = await sandbox();
    const acks = new Collector<WaAcks>(svc.nc, `wa.ack.${c.companyId}.${c.id}.all`);
    try {
      const send: CampaignSend = {
        companyId: c.companyId,
        connectionId: c.id,
        campaignId: 7,
        shippingId: randomInt(1e6),
        waMessageId: wid(),
        to: phone(),
        body: 'Promoção de fim de ano!',
      };
      // campaigns published it twice (a retry after a lost answer): two messages on the stream, not one
      await svc.bus.publish(CampaignSubjects.send(c.companyId, c.id), send, { msgId: `campaign-send:${send.waMessageId}:1` });
      await svc.bus.publish(CampaignSubjects.send(c.companyId, c.id), send, { msgId: `campaign-send:${send.waMessageId}:2` });
      const sent = await waitFor(async () => (await outbox(c)).find((i) => i.waMessageId === send.waMessageId));
      expect(sent).toMatchObject({ to: send.to, body: send.body, kind: 'send', media: null });
      // acked as the sandbox phone acks: sent (1), then server, delivered, read
      for (const ack of [1, 2, 3, 4])
        await acks.waitFor((e) => e.data.acks.some((a) => a.waMessageId === send.waMessageId && a.ack === ack));
      // the second delivery was a duplicate, dropped
      const next: CampaignSend = { ...send, shippingId: send.shippingId + 1, waMessageId: wid(), body: 'Depois da duplicata' };
      await svc.bus.publish(CampaignSubjects.send(c.companyId, c.id), next, { msgId: `campaign-send:${next.waMessageId}` });
      await waitFor(async () => (await outbox(c)).find((i) => i.waMessageId === next.waMessageId));
      expect((await outbox(c)).filter((i) => i.waMessageId === send.waMessageId)).toHaveLength(1);

      // a campaign's file: the phone receives its bytes, with the message as its caption
      const photo = pngFile({ size: 32, padTo: 50_000 });
      const key = `${c.companyId}/${randomBytes(8).toString('hex')}/oferta.png`;
      await svc.app.get(MediaStorage).put(key, Readable.from([photo]));
      const file: CampaignSend = {
        ...send,
        waMessageId: wid(),
        body: 'Veja a oferta',
        media: { key, mimetype: 'image/png', fileName: 'oferta.png', size: photo.length, mediaType: 'image' },
      };
      await svc.bus.publish(CampaignSubjects.send(c.companyId, c.id), file, { msgId: `campaign-send:${file.waMessageId}` });
      expect(await waitFor(async () => (await outbox(c)).find((i) => i.waMessageId === file.waMessageId))).toMatchObject({
        to: send.to,
        body: 'Veja a oferta',
        media: {
          mimetype: 'image/png',
          fileName: 'oferta.png',
          size: photo.length,
          sha256: createHash('sha256').update(photo).digest('hex'),
        },
      });
    } finally {
      acks.close();
    }
  });

  it('fails a send to a number that left WhatsApp at once (ERR_WAPP_INVALID_CONTACT), never retried; the next send goes on', async () => {
    const c = await sandbox();
    const gone = phone();
    expect((await svc.http.post(`/whatsappsession/${c.id}/sandbox/leave`, { token: c.token, body: { number: gone } })).status).toBe(200);
    const acks = new Collector<WaAck>(svc.nc, `wa.ack.${c.companyId}.${c.id}.>`);
    try {
      const base = { companyId: c.companyId, connectionId: c.id, campaignId: 9, body: 'Olá!' };
      const refused: CampaignSend = { ...base, shippingId: 1, waMessageId: wid(), to: gone };
      const after: CampaignSend = { ...base, shippingId: 2, waMessageId: wid(), to: phone() };
      const started = Date.now();
      await svc.bus.publish(CampaignSubjects.send(c.companyId, c.id), refused, { msgId: `campaign-send:${refused.waMessageId}` });
      await svc.bus.publish(CampaignSubjects.send(c.companyId, c.id), after, { msgId: `campaign-send:${after.waMessageId}` });
      const failed = await acks.waitFor((a) => a.data.waMessageId === refused.waMessageId && !!a.data.failed, 5_000);
      expect(failed.data).toMatchObject({ companyId: c.companyId, connectionId: c.id, ack: 0 });
      expect(failed.data.failed).toMatch(/^ERR_WAPP_INVALID_CONTACT/);
      await waitFor(async () => (await outbox(c)).find((i) => i.waMessageId === after.waMessageId), { timeoutMs: 5_000 });
      // well before the first retry's back-off would have let it through
      expect(Date.now() - started).toBeLessThan(3_000);
      await sleep(1_500);
      expect(acks.items.filter((a) => a.data.waMessageId === refused.waMessageId && !!a.data.failed)).toHaveLength(1);
      expect((await outbox(c)).some((i) => i.to === gone)).toBe(false);
    } finally {
      acks.close();
    }
  });
});

describe('sessions: the campaign lane follows the session', () => {
  it('keeps what is published while the session is ended for when it runs again; a deleted connection leaves no durable behind', async () => {
    const c = await sandbox();
    const durable = `wa-out-campaign-${c.id}`;
    await waitFor(async () => (await svc.jsm.consumers.info('CAMPAIGNS', durable).catch(() => null)) ?? undefined);
    expect((await svc.http.delete(`/whatsappsession/${c.id}`, { token: c.token })).status).toBe(200);
    await waitFor(async () => !svc.runner.isRunning(c.id) || undefined);
    const send: CampaignSend = {
      companyId: c.companyId,
      connectionId: c.id,
      campaignId: 3,
      shippingId: 1,
      waMessageId: wid(),
      to: phone(),
      body: 'Enquanto desligado',
    };
    await svc.bus.publish(CampaignSubjects.send(c.companyId, c.id), send, { msgId: `campaign-send:${send.waMessageId}` });
    await sleep(500);
    expect((await svc.jsm.consumers.info('CAMPAIGNS', durable)).num_pending).toBe(1);

    expect((await svc.http.post(`/whatsappsession/${c.id}`, { token: c.token })).status).toBe(200);
    await waitForStatus(svc, c.token, c.id, 'CONNECTED');
    expect(await waitFor(async () => (await outbox(c)).find((i) => i.waMessageId === send.waMessageId))).toMatchObject({
      to: send.to,
      body: send.body,
    });

    expect((await svc.http.delete(`/whatsapp/${c.id}`, { token: c.token })).status).toBe(200);
    await waitFor(async () => ((await svc.jsm.consumers.info('CAMPAIGNS', durable).catch(() => null)) === null ? true : undefined));
  });
});

describe('sessions: checkMany (session command)', () => {
  it('answers per number, in the order asked, from one question to the phone; refuses more than NUMBER_CHECK_MANY_MAX', async () => {
    const c = await sandbox();
    const gone = phone();
    await svc.http.post(`/whatsappsession/${c.id}/sandbox/leave`, { token: c.token, body: { number: gone } });
    const provider = svc.runner.session(c.id)!.provider;
    let asked = 0;
    const checkNumbers = provider.checkNumbers.bind(provider);
    provider.checkNumbers = (numbers: string[]) => {
      asked++;
      return checkNumbers(numbers);
    };
    const checkMany = (numbers: unknown) =>
      request<{ ok: boolean; result?: unknown; code?: string }>(
        svc.bus,
        sessionCommandSubject(c.id),
        { action: 'checkMany', numbers },
        { timeoutMs: 5_000 },
      );
    const on = phone();
    expect(await checkMany([on, '5511999', gone, '551133334444', 'abc'])).toEqual({
      ok: true,
      result: {
        results: [
          { number: on, exists: true, jid: `${on}@s.whatsapp.net` },
          { number: '5511999', exists: false, jid: null },
          { number: gone, exists: false, jid: null },
          { number: '551133334444', exists: true, jid: '551133334444@s.whatsapp.net' },
          { number: 'abc', exists: false, jid: null },
        ],
      },
    });
    expect(asked).toBe(1);
    expect(await checkMany([])).toEqual({ ok: true, result: { results: [] } });
    const tooMany = Array.from({ length: NUMBER_CHECK_MANY_MAX + 1 }, () => phone());
    expect(await checkMany(tooMany)).toMatchObject({ ok: false, code: 'ERR_VALIDATION' });
    expect(await checkMany('5511999990000')).toMatchObject({ ok: false, code: 'ERR_VALIDATION' });
  });
});

describe('connections: the campaign pace fields', () => {
  it('default to no cap, no warm-up, any hour; round-trip through PUT /whatsapp/{id} and reach connection.updated', async () => {
    const c = await sandbox();
    expect(c).toMatchObject({ campaignDailyLimit: 0, campaignWarmup: false, campaignHours: '' });
    const events = new Collector<ConnectionChangedEvent>(svc.nc, `connection.updated.${c.companyId}.${c.id}`);
    try {
      const put = await svc.http.put(`/whatsapp/${c.id}`, {
        token: c.token,
        body: { campaignDailyLimit: '250', campaignWarmup: true, campaignHours: '08:00-18:30' },
      });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ campaignDailyLimit: 250, campaignWarmup: true, campaignHours: '08:00-18:30' });
      const event = await events.waitFor((e) => e.data.connection.campaignDailyLimit === 250);
      expect(event.data.connection).toMatchObject({
        id: c.id,
        campaignDailyLimit: 250,
        campaignWarmup: true,
        campaignHours: '08:00-18:30',
      });
      expect((await svc.http.get(`/whatsapp/${c.id}`, { token: c.token })).body).toMatchObject({
        campaignDailyLimit: 250,
        campaignWarmup: true,
        campaignHours: '08:00-18:30',
      });
      // across midnight, then any hour again; a change of other fields keeps them
      expect((await svc.http.put(`/whatsapp/${c.id}`, { token: c.token, body: { campaignHours: '22:00-06:00' } })).body.campaignHours).toBe(
        '22:00-06:00',
      );
      expect((await svc.http.put(`/whatsapp/${c.id}`, { token: c.token, body: { campaignHours: '' } })).body.campaignHours).toBe('');
      expect((await svc.http.put(`/whatsapp/${c.id}`, { token: c.token, body: { greetingMessage: 'Oi' } })).body).toMatchObject({
        campaignDailyLimit: 250,
        campaignWarmup: true,
      });

      for (const [body, field] of [
        [{ campaignHours: '8:00-18:00' }, 'campaignHours'],
        [{ campaignHours: '08:00-24:00' }, 'campaignHours'],
        [{ campaignHours: '08:00' }, 'campaignHours'],
        [{ campaignDailyLimit: -1 }, 'campaignDailyLimit'],
        [{ campaignDailyLimit: 1.5 }, 'campaignDailyLimit'],
        [{ campaignWarmup: 'sim' }, 'campaignWarmup'],
      ] as const) {
        const res = await svc.http.put(`/whatsapp/${c.id}`, { token: c.token, body });
        expect(res.status).toBe(400);
        expect(fieldMessages(res.body, field).length).toBeGreaterThan(0);
      }
      // set on creation too
      const other = await createConnection(svc, c.token, { channel: 'sandbox', campaignDailyLimit: 40, campaignHours: '09:00-17:00' });
      created.push({ id: other.id, token: c.token });
      expect(other).toMatchObject({ campaignDailyLimit: 40, campaignWarmup: false, campaignHours: '09:00-17:00' });
    } finally {
      events.close();
    }
  });
});

describe('sandbox: a banned number', () => {
  it('POST …/sandbox/ban ends the session as WhatsApp ends a banned one: DISCONNECTED, told with the reason banned', async () => {
    const c = await sandbox();
    const events = new Collector<ConnectionSessionEvent>(svc.nc, `connection.session.${c.companyId}.${c.id}`);
    try {
      const res = await svc.http.post(`/whatsappsession/${c.id}/sandbox/ban`, { token: c.token });
      expect(res.status).toBe(200);
      const ended = await events.waitFor((e) => e.data.status === 'DISCONNECTED');
      expect(ended.data).toMatchObject({
        companyId: c.companyId,
        connectionId: c.id,
        reason: 'banned',
        session: { status: 'DISCONNECTED' },
      });
      expect((await waitForStatus(svc, c.token, c.id, 'DISCONNECTED')).qrcode).toBe('');
      await waitFor(async () => !svc.runner.isRunning(c.id) || undefined);
      // no session left to ban
      expect((await svc.http.post(`/whatsappsession/${c.id}/sandbox/ban`, { token: c.token })).status).toBeGreaterThanOrEqual(400);
      // an agent may not; another company's connection is not found
      expect((await svc.http.post(`/whatsappsession/${c.id}/sandbox/ban`, { token: tokenFor(c.companyId, 'user') })).status).toBe(403);
      expect((await svc.http.post(`/whatsappsession/${c.id}/sandbox/ban`, { token: tokenFor(companies[6]!) })).status).toBe(404);
    } finally {
      events.close();
    }
  });
});
