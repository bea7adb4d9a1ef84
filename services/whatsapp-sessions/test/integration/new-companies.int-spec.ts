import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Subjects, type CompanyCreatedEvent, type WhatsappDto } from '@wa/contracts';
import { waitFor } from '@wa/testing';
import { companyPool, startSessions, tokenFor, type SessionsUnderTest } from './harness.js';

const [companyId] = companyPool(1) as [number];
let svc: SessionsUnderTest;

beforeAll(async () => {
  svc = await startSessions([companyId], { SANDBOX_FOR_NEW_COMPANIES: 'true' });
});

afterAll(async () => {
  await svc?.close();
});

describe('a sandbox for new companies (SANDBOX_FOR_NEW_COMPANIES, an operator setting)', () => {
  it("gives a company made by sign-up (auth's company.created) one default sandbox connection that connects, once", async () => {
    const token = tokenFor(companyId);
    const event: CompanyCreatedEvent = { companyId, name: 'Nova', at: new Date().toISOString() };
    await svc.bus.publish(Subjects.companyCreated(companyId), event, { msgId: `test-company-created:${companyId}` });
    const connected = await waitFor(
      async () => {
        const list = (await svc.http.get('/whatsapp', { token })).body as WhatsappDto[];
        return list[0]?.status === 'CONNECTED' ? list : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(connected).toHaveLength(1);
    expect(connected[0]).toMatchObject({ name: 'Sandbox', channel: 'sandbox', isDefault: true });
    // the same event again (a redelivery) adds nothing
    await svc.bus.publish(Subjects.companyCreated(companyId), event, { msgId: `test-company-created:${companyId}:again` });
    await new Promise((r) => setTimeout(r, 1000));
    expect(((await svc.http.get('/whatsapp', { token })).body as WhatsappDto[]).length).toBe(1);
  });
});
