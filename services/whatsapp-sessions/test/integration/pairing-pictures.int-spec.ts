import { randomInt } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { sessionCommandSubject, type ProfilePictureCommand } from '@wa/contracts';
import { request } from '@wa/event-bus';
import { createConnection, fieldMessages, sessionsSuite, tokenFor, waitForStatus, type SessionsUnderTest } from './harness.js';

/**
 * Issue 42 §8 through the sandbox phone: the pairing code, the alternative to the QR (`POST /whatsappsession/{id}/pairing-code`),
 * and contacts' profile pictures as tickets asks for them (the `profilePicture` session command over NATS).
 */

let svc: SessionsUnderTest;
const { companies, created } = sessionsSuite(2, (s) => (svc = s));

/** A São Paulo mobile (its 8 digits after the 9th start 6–9, so WhatsApp's old form without the 9th digit is one too). */
const phone = () => `55119${randomInt(60_000_000, 99_999_999)}`;

describe('sessions: the pairing code', () => {
  it('answers a code as WhatsApp shows it while the connection waits for a pairing, which then pairs with that number; refused otherwise', async () => {
    const companyId = companies[0]!;
    const token = tokenFor(companyId);
    const c = await createConnection(svc, token, { name: 'Pareamento' });
    created.push({ id: c.id, token });
    await waitForStatus(svc, token, c.id, 'CONNECTED');

    // paired already: nothing to pair
    const paired = await svc.http.post(`/whatsappsession/${c.id}/pairing-code`, { token, body: { number: phone() } });
    expect({ status: paired.status, error: paired.body.error }).toEqual({ status: 400, error: 'ERR_WAPP_NOT_INITIALIZED' });

    // the phone is unpaired: the session waits for a pairing, with a QR to show
    const unpaired = await svc.http.post(`/whatsappsession/${c.id}/sandbox/unpair`, { token });
    expect({ status: unpaired.status, body: unpaired.body }).toEqual({
      status: 200,
      body: { message: 'The phone was unpaired; the session waits for a pairing.' },
    });
    const waiting = await waitForStatus(svc, token, c.id, 'qrcode');
    expect(waiting.qrcode).not.toBe('');

    const bad = await svc.http.post(`/whatsappsession/${c.id}/pairing-code`, { token, body: { number: '(11) 9999' } });
    expect(bad.status).toBe(400);
    expect(fieldMessages(bad.body, 'number')).toEqual(["number must be the phone's number with its country code: 10 to 15 digits"]);
    const agent = await svc.http.post(`/whatsappsession/${c.id}/pairing-code`, {
      token: tokenFor(companyId, 'user'),
      body: { number: phone() },
    });
    expect(agent.status).toBe(403);
    const elsewhere = await svc.http.post(`/whatsappsession/${c.id}/pairing-code`, {
      token: tokenFor(companies[1]!),
      body: { number: phone() },
    });
    expect({ status: elsewhere.status, error: elsewhere.body.error }).toEqual({ status: 404, error: 'ERR_NO_WAPP_FOUND' });

    const number = phone();
    const res = await svc.http.post(`/whatsappsession/${c.id}/pairing-code`, { token, body: { number } });
    expect(res.status).toBe(200);
    expect(res.body.code).toMatch(/^[1-9A-HJ-NP-TV-Z]{4}-[1-9A-HJ-NP-TV-Z]{4}$/);
    // the phone takes the code: paired with the number given, as after a QR scan
    const up = await waitForStatus(svc, token, c.id, 'CONNECTED');
    expect(up).toMatchObject({ number, qrcode: '' });
  });
});

describe('sessions: contacts’ profile pictures', () => {
  it('answers the picture the sandbox’s WhatsApp has for a number, none by default or once removed', async () => {
    const companyId = companies[1]!;
    const token = tokenFor(companyId);
    const c = await createConnection(svc, token, { name: 'Fotos' });
    created.push({ id: c.id, token });
    await waitForStatus(svc, token, c.id, 'CONNECTED');
    const number = phone();
    const ask = (to: string) =>
      request<{ ok: boolean; result?: { url: string | null } }>(
        svc.bus,
        sessionCommandSubject(c.id),
        { action: 'profilePicture', to } satisfies ProfilePictureCommand,
        { timeoutMs: 5000 },
      );

    expect(await ask(number)).toEqual({ ok: true, result: { url: null } });
    const url = `https://pps.whatsapp.net/v/t61/${number}.jpg`;
    const set = await svc.http.put(`/whatsappsession/${c.id}/sandbox/profile-picture`, { token, body: { number, url } });
    expect(set.status).toBe(200);
    expect(await ask(number)).toEqual({ ok: true, result: { url } });
    // the same customer under WhatsApp's old form of the number (without the 9th digit)
    expect(await ask(`5511${number.slice(5)}`)).toEqual({ ok: true, result: { url } });

    const wrong = await svc.http.put(`/whatsappsession/${c.id}/sandbox/profile-picture`, { token, body: { number, url: 'foto.jpg' } });
    expect(wrong.status).toBe(400);
    expect((await svc.http.put(`/whatsappsession/${c.id}/sandbox/profile-picture`, { token, body: { number, url: null } })).status).toBe(
      200,
    );
    expect(await ask(number)).toEqual({ ok: true, result: { url: null } });
  });
});
