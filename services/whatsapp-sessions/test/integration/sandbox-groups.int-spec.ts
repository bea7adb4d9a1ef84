import { randomInt } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { WaSubjects, type WaInboundMessage } from '@wa/contracts';
import { createConnection, lastOn, sessionsSuite, tokenFor, type SessionsUnderTest } from './harness.js';

let svc: SessionsUnderTest;
const { companies, created } = sessionsSuite(1, (s) => (svc = s));

describe('sessions: a group message through the sandbox (groupId)', () => {
  it("is published as Baileys publishes a group's message: the group's conversation, isGroup; a bad id is a 400", async () => {
    const companyId = companies[0]!;
    const token = tokenFor(companyId);
    const c = await createConnection(svc, token, { name: 'Sandbox' });
    created.push({ id: c.id, token });
    const groupId = `120363${randomInt(100_000_000, 999_999_999)}${randomInt(100_000, 999_999)}`;
    const member = `55119${randomInt(10_000_000, 99_999_999)}`;
    const res = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, {
      token,
      body: { from: member, groupId, name: 'Joana', body: 'bom dia, grupo' },
    });
    expect(res.status).toBe(202);
    const stored = await lastOn<WaInboundMessage>(svc.jsm, WaSubjects.inbound(companyId, c.id, groupId));
    expect(stored.data).toMatchObject({
      companyId,
      connectionId: c.id,
      waMessageId: res.body.id,
      from: groupId,
      fromName: 'Joana',
      body: 'bom dia, grupo',
      isGroup: true,
      fromMe: false,
    });

    const bad = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, {
      token,
      body: { from: member, groupId: '1203@g.us', body: 'x' },
    });
    expect(bad.status).toBe(400);
  });
});
