import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getDataSourceToken } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { SearchIndexMerge } from '../../src/inbound/search-index-merge.js';
import { randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

/**
 * The message search index's pending list is merged apart from the inserts (issue 44): a customer's message is found
 * by a search before the merge (from the list) and after it (from the index), and a merge takes what the list held.
 */

let t: TicketsUnderTest;
let db: DataSource;

beforeAll(async () => {
  // the pass is run by the test; the timer stays out of its way
  t = await startTickets({ MESSAGE_SEARCH_MERGE_MS: '60000' });
  db = t.app.get(getDataSourceToken()) as DataSource;
});

afterAll(async () => {
  await t?.close();
});

/** The ids of the tickets a search for `term` lists. */
async function found(token: string, term: string): Promise<number[]> {
  const res = await t.http.get(`/tickets?showAll=true&searchParam=${encodeURIComponent(term)}`, { token });
  expect(res.status).toBe(200);
  return (res.body.tickets as Array<{ id: number }>).map((x) => x.id);
}

describe('the message search index merged apart', () => {
  it("finds a message's words before and after its list is merged; a merge takes the list, the next finds it empty", async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const customer = randomNumber();
    // a word no other message has: only this ticket can match it
    const word = `orcamento${randomBytes(5).toString('hex')}`;
    await c.inbound(conn.id, customer, `preciso de um ${word} para amanhã`);
    const ticket = await ticketOfNumber(t, admin.token, customer);

    expect(await found(admin.token, word)).toEqual([ticket.id]);
    const merge = t.app.get(SearchIndexMerge);
    expect(await merge.merge()).toBeGreaterThan(0);
    expect(await merge.merge()).toBe(0);
    expect(await found(admin.token, word)).toEqual([ticket.id]);
    expect(await found(admin.token, `${word}x`)).toEqual([]);

    // the list's bound when the merge falls behind (migration 047)
    const [index] = (await db.query(`SELECT reloptions FROM pg_class WHERE oid = 'tickets.messages_body_trgm'::regclass`)) as Array<{
      reloptions: string[];
    }>;
    expect(index!.reloptions).toContain('gin_pending_list_limit=4096');
  });
});
