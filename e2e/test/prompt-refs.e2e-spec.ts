import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getDataSourceToken } from '@nestjs/typeorm';
import { waitFor } from '@wa/testing';
import type { DataSource } from 'typeorm';
import { AnnounceKnownRefs1732240000034 } from '../../services/tickets/src/database/migrations/1732240000034-announce-known-refs.js';
import { newQueue, startTickets, TestCompany, type TicketsUnderTest } from '../../services/tickets/test/integration/harness.js';
import { cleanup, startSessions, tokenFor, type SessionsUnderTest } from '../../services/whatsapp-sessions/test/integration/harness.js';

/**
 * Issue 38 item 8, both services booted from source in this process (no build needed): tickets announces its prompts (prompt.updated /
 * prompt.deleted through its outbox) and whatsapp-sessions takes a connection's promptId of the caller's
 * company only. Before tickets announced them, every promptId was refused.
 */
let tickets: TicketsUnderTest;
let svc: SessionsUnderTest;
const created: Array<{ id: number; token: string }> = [];
const PROMPT_TEXT = 'Você é um atendente cordial que responde em português.';

beforeAll(async () => {
  tickets = await startTickets();
  svc = await startSessions([]);
}, 60_000);

afterAll(async () => {
  await cleanup(svc, created);
  await svc?.close();
  await tickets?.close();
}, 60_000);

/** A connection made by an admin; the read model may take a moment to learn a prompt just made, so 400s are tried again (up to 15 s). */
async function createWith(token: string, body: Record<string, unknown>): Promise<{ status: number; body: any }> {
  let last: { status: number; body: any } = { status: 0, body: undefined };
  await waitFor(
    async () => {
      last = await svc.http.post('/whatsapp', { token, body: { name: `Com agente ${Date.now()}`, ...body } });
      if (last.status === 201) created.push({ id: last.body.id, token });
      return last.status !== 400 || undefined;
    },
    { timeoutMs: 15_000 },
  ).catch(() => undefined);
  return last;
}

describe('a prompt made in tickets on a connection (whatsapp-sessions)', () => {
  it("is taken for its own company's connection, refused for another company's, and refused once deleted", async () => {
    const a = new TestCompany(tickets);
    const b = new TestCompany(tickets);
    const adminA = await a.user('admin');
    const queue = await newQueue(tickets, adminA.token);
    const made = await tickets.http.post('/prompt', {
      token: adminA.token,
      body: { name: 'Agente A', prompt: PROMPT_TEXT, queueId: queue.id },
    });
    expect(made.status).toBe(201);
    const promptId = made.body.id as number;

    const sessionsA = tokenFor(a.companyId, 'admin');
    const own = await createWith(sessionsA, { promptId, queueIds: [queue.id] });
    expect({ status: own.status, promptId: own.body?.promptId }).toEqual({ status: 201, promptId });

    const sessionsB = tokenFor(b.companyId, 'admin');
    const borrowed = await svc.http.post('/whatsapp', { token: sessionsB, body: { name: 'Emprestado', promptId } });
    expect({ status: borrowed.status, error: borrowed.body.error }).toEqual({ status: 400, error: 'ERR_VALIDATION' });
    expect((await svc.http.get('/whatsapp', { token: sessionsB })).body).toEqual([]);

    // deleted in tickets: no longer taken, not even by its company
    expect((await tickets.http.delete(`/prompt/${promptId}`, { token: adminA.token })).status).toBe(200);
    const refused = await waitFor(
      async () => {
        const res = await svc.http.put(`/whatsapp/${own.body.id}`, { token: sessionsA, body: { promptId } });
        return res.status === 400 ? res : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(refused.body.error).toBe('ERR_VALIDATION');
  });

  it('knows prompts made before tickets announced them, once migration 1732240000034 ran (an upgrade)', async () => {
    const a = new TestCompany(tickets);
    const adminA = await a.user('admin');
    const queue = await newQueue(tickets, adminA.token);
    const db = tickets.app.get(getDataSourceToken()) as DataSource;
    // a prompt as an older tickets wrote it: its row only, never announced
    const [{ id: promptId }] = await db.query(
      `INSERT INTO tickets.prompts ("companyId", name, prompt, "queueId") VALUES ($1, 'Antigo', $2, $3) RETURNING id`,
      [a.companyId, PROMPT_TEXT, queue.id],
    );
    const sessionsA = tokenFor(a.companyId, 'admin');
    const before = await svc.http.post('/whatsapp', { token: sessionsA, body: { name: 'Antes', promptId } });
    expect(before.status).toBe(400);

    const runner = db.createQueryRunner();
    try {
      await new AnnounceKnownRefs1732240000034().up(runner);
    } finally {
      await runner.release();
    }
    const after = await createWith(sessionsA, { promptId });
    expect({ status: after.status, promptId: after.body?.promptId }).toEqual({ status: 201, promptId });
    const other = await svc.http.post('/whatsapp', {
      token: tokenFor(new TestCompany(tickets).companyId, 'admin'),
      body: { name: 'Outra', promptId },
    });
    expect(other.status).toBe(400);
  });
});
