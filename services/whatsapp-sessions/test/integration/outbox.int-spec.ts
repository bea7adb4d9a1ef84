import { describe, expect, it } from '@jest/globals';
import { ConnectionSubjects, type ConnectionChangedEvent, type ConnectionSessionEvent } from '@wa/contracts';
import { fnv1a } from '@wa/event-bus';
import { TEST_DATABASE_URL, waitFor } from '@wa/testing';
import pg from 'pg';
import { Collector, createConnection, sessionsSuite, tokenFor, waitForStatus, type SessionsUnderTest } from './harness.js';

let svc: SessionsUnderTest;
const { companies, created } = sessionsSuite(2, (s) => (svc = s));

/**
 * Connection changes and session states (status, QR) are written with their events in one transaction;
 * the outbox relay publishes them after commit. Holding the relay's lock stands for "nothing can be
 * published now" (a crash right after commit, NATS away): the change is answered and stored, its event
 * waits in the table, and it is published once the relay can run.
 */
describe('whatsapp-sessions publishes through its outbox', () => {
  it('an edit and a session start answer at once, their events wait in whatsapp.outbox, then arrive once each', async () => {
    const companyId = companies[0]!;
    const token = tokenFor(companyId);
    const conn = await createConnection(svc, token, { channel: 'sandbox' });
    created.push({ id: conn.id, token });
    await waitForStatus(svc, token, conn.id, 'CONNECTED');
    // the events of the creation and first connect are out before anything is watched (a late one would look leaked)
    const drained = () =>
      waitFor(
        async () =>
          Number(
            (
              await svc.db.query(`SELECT count(*) AS n FROM whatsapp.outbox WHERE subject LIKE $1`, [
                `connection.%.${companyId}.${conn.id}`,
              ])
            )[0].n,
          ) === 0,
      );
    await drained();

    const updates = new Collector<ConnectionChangedEvent>(svc.nc, ConnectionSubjects.updated(companyId, conn.id));
    const sessions = new Collector<ConnectionSessionEvent>(svc.nc, ConnectionSubjects.session(companyId, conn.id));
    const holder = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1)', [fnv1a('outbox:whatsapp') | 0]);

      const renamed = await svc.http.put(`/whatsapp/${conn.id}`, { token, body: { name: `Renomeada ${conn.id}` } });
      expect(renamed.status).toBe(200);
      // the session goes down and up again: two session states, each with its event
      expect((await svc.http.delete(`/whatsappsession/${conn.id}`, { token })).status).toBeLessThan(300);
      await waitForStatus(svc, token, conn.id, 'DISCONNECTED');
      expect((await svc.http.post(`/whatsappsession/${conn.id}`, { token })).status).toBeLessThan(300);
      await waitForStatus(svc, token, conn.id, 'CONNECTED');

      const waiting: Array<{ subject: string; payload: { connection?: { name: string }; status?: string } }> = (
        await holder.query(`SELECT subject, payload FROM whatsapp.outbox WHERE subject LIKE $1 ORDER BY id`, [
          `connection.%.${companyId}.${conn.id}`,
        ])
      ).rows;
      expect(
        waiting.some(
          (r) => r.subject === ConnectionSubjects.updated(companyId, conn.id) && r.payload.connection?.name === `Renomeada ${conn.id}`,
        ),
      ).toBe(true);
      const states = waiting.filter((r) => r.subject === ConnectionSubjects.session(companyId, conn.id)).map((r) => r.payload.status);
      expect(states).toContain('DISCONNECTED');
      expect(states[states.length - 1]).toBe('CONNECTED');
      await new Promise((r) => setTimeout(r, 500));
      expect(updates.items).toEqual([]);
      expect(sessions.items).toEqual([]);
    } finally {
      await holder.query('COMMIT');
      await holder.end();
    }

    await updates.waitFor((i) => i.data.connection.name === `Renomeada ${conn.id}`);
    await sessions.waitFor((i) => i.data.status === 'CONNECTED');
    await drained();
    // in the order they were written, each once
    const order = sessions.items.map((i) => i.data.status);
    expect(order.indexOf('DISCONNECTED')).toBeLessThan(order.lastIndexOf('CONNECTED'));
    expect(new Set(updates.items.map((i) => i.msgId)).size).toBe(updates.items.length);
    updates.close();
    sessions.close();
  });
});
