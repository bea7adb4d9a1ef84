import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { paymentConfirmedSubject, SocketChannels, Subjects, type CompanyUpdatedEvent, type PaymentEvent } from '@wa/contracts';
import {
  connect,
  deployment,
  dropDurable,
  newCompanyId,
  newId,
  newUser,
  settle,
  startReplica,
  type Client,
  type Replica,
} from './harness.js';

describe('realtime-gateway: a confirmed payment, live', () => {
  let settings: ReturnType<typeof deployment>;
  let gw: Replica;
  const clients: Client[] = [];
  const open = async (token: string) => {
    const c = await connect(gw.baseUrl, token);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    settings = deployment();
    gw = await startReplica(settings);
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    try {
      await dropDurable(gw.bus, settings.REALTIME_DURABLE);
    } finally {
      await gw.close();
    }
  });

  it("sends auth's CONCLUIDA on company-<id>-payment to that company's sockets, not another company's nor the companies list", async () => {
    const companyA = newCompanyId();
    const companyB = newCompanyId();
    const admin = await open((await newUser(gw, companyA, { profile: 'admin' })).token);
    const agent = await open((await newUser(gw, companyA, {})).token);
    const other = await open((await newUser(gw, companyB, { profile: 'admin' })).token);
    // a super user of another company: the companies list hears company.created|updated|deleted only
    const staff = await open((await newUser(gw, companyB, { profile: 'admin', super: true })).token);

    const payment: PaymentEvent = {
      action: 'CONCLUIDA',
      invoiceId: newId(),
      company: { id: companyA, name: 'Padaria', planId: 2, status: true, dueDate: '2099-02-10', recurrence: 'MENSAL' },
    };
    await gw.bus.publish(paymentConfirmedSubject(companyA), payment, { msgId: randomUUID() });
    // naming another company than its subject: nowhere
    await gw.bus.publish(paymentConfirmedSubject(companyB), payment, { msgId: randomUUID() });
    // the renewal's company.updated, on the companies' list of super users (after the payment: it shows all came)
    const updated: CompanyUpdatedEvent = {
      companyId: companyA,
      name: 'Padaria',
      planId: 2,
      status: true,
      dueDate: '2099-02-10',
      at: new Date().toISOString(),
    };
    await gw.bus.publish(Subjects.companyUpdated(companyA), updated, { msgId: randomUUID() });

    const channel = SocketChannels.payment(companyA);
    await settle(() => admin.events(channel).length === 1 && agent.events(channel).length === 1 && staff.received.size > 0);
    expect(admin.events(channel)).toEqual([payment]);
    expect(agent.events(channel)).toEqual([payment]);
    expect([...admin.received.keys()]).toEqual([channel]);
    expect(other.received.size).toBe(0);
    expect([...staff.received.keys()]).toEqual([SocketChannels.companies()]);
    expect(staff.events(SocketChannels.companies())).toEqual([{ action: 'update', id: companyA }]);
  });
});
