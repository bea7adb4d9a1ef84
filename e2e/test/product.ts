import { expect } from '@jest/globals';
import { createDataSource } from '@wa/database';
import { TEST_DATABASE_URL, uniqueEmail, waitFor, type HttpClient } from '@wa/testing';
import { io, type Socket } from 'socket.io-client';
import { createCompanyWithAdmin, ensureFullPlan, isoDateFromNow } from '../../services/auth/src/database/companies.js';
import { authDatabase } from '../../services/auth/src/database/data-source.js';

/** What the e2e suites do through the gateway: companies, agents, live sockets, sandbox connections. */
export class Product {
  constructor(
    readonly http: HttpClient,
    readonly gatewayUrl: string,
  ) {}

  async newCompany(name: string) {
    const admin = { email: uniqueEmail('path-admin'), password: 'secret123' };
    const ds = createDataSource(authDatabase(TEST_DATABASE_URL, 1));
    await ds.initialize();
    await ds.transaction(async (tx) => {
      const plan = await ensureFullPlan(tx);
      await createCompanyWithAdmin(tx, { name, dueDate: isoDateFromNow(30), planId: plan.id, admin: { name: `${name} Admin`, ...admin } });
    });
    await ds.destroy();
    const login = await this.http.post('/auth/login', { body: admin });
    expect(login.status).toBe(200);
    return { token: login.body.token as string, user: login.body.user as { id: number; companyId: number; name: string } };
  }

  async agentOf(adminToken: string, queueIds: number[]) {
    const agent = { name: 'Agente Dois', email: uniqueEmail('path-agent'), password: 'agent123', profile: 'user', queueIds };
    expect((await this.http.post('/users', { token: adminToken, body: agent })).status).toBe(201);
    const login = await this.http.post('/auth/login', { body: { email: agent.email, password: agent.password } });
    return { token: login.body.token as string, id: login.body.user.id as number };
  }

  /** A socket through the gateway, recording every event it receives. */
  async socketOf(token: string): Promise<{ socket: Socket; events: Array<{ name: string; payload: any }> }> {
    const events: Array<{ name: string; payload: any }> = [];
    const socket = io(this.gatewayUrl, { path: '/socket.io', transports: ['websocket'], auth: { token }, reconnection: false });
    socket.onAny((name, payload) => events.push({ name, payload }));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return { socket, events };
  }

  /** A sandbox connection with one queue, started, connected. */
  async connectedSandbox(token: string, queueId: number) {
    const created = await this.http.post('/whatsapp', {
      token,
      body: { name: `Sandbox ${Date.now()}`, channel: 'sandbox', queueIds: [queueId], isDefault: true },
    });
    expect(created.status).toBe(201);
    expect((await this.http.post(`/whatsappsession/${created.body.id}`, { token })).status).toBeLessThan(300);
    await waitFor(async () => (await this.http.get(`/whatsapp/${created.body.id}`, { token })).body.status === 'CONNECTED');
    return created.body as { id: number };
  }
}
