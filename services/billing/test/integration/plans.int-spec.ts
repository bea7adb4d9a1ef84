import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getDataSourceToken } from '@nestjs/typeorm';
import { PlanSubjects, type PlanChangedEvent } from '@wa/contracts';
import { EventBus } from '@wa/event-bus';
import { HttpClient, startInProcess, uniqueSuffix, type RunningApp } from '@wa/testing';
import type { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module.js';
import { BillingEnv } from '../../src/config/env.js';
import { billingDatabase } from '../../src/database/data-source.js';
import { PlansService } from '../../src/plans/plans.service.js';

let billing: RunningApp;
let db: DataSource;

beforeAll(async () => {
  billing = await startInProcess({
    envClass: BillingEnv,
    module: (env) => AppModule.register(env),
    database: (env) => billingDatabase(env.DATABASE_URL),
  });
  db = billing.app.get(getDataSourceToken());
});

afterAll(async () => {
  await billing?.close();
});

describe('plans (spec 01 §7 GET /plans/list)', () => {
  it('lists the public plans to anyone, without a token or cookies; hides the others', async () => {
    const name = `Básico ${uniqueSuffix()}`;
    const hidden = `Interno ${uniqueSuffix()}`;
    await db.query(
      `INSERT INTO billing.plans (name, users, connections, queues, value, "useOpenAi", "trialDays") VALUES ($1, 3, 3, 3, 49, false, 14)`,
      [name],
    );
    await db.query(`INSERT INTO billing.plans (name, "isPublic") VALUES ($1, false)`, [hidden]);
    const res = await new HttpClient(billing.baseUrl).get('/plans/list');
    expect(res.status).toBe(200);
    const names = res.body.map((p: { name: string }) => p.name);
    // the provider's own plan 1 (free, unlimited) and internal plans are not offered
    expect(names).not.toContain('Plano Completo');
    expect(names).not.toContain(hidden);
    expect(res.body.find((p: { name: string }) => p.name === name)).toMatchObject({
      users: 3,
      connections: 3,
      queues: 3,
      value: 49,
      useOpenAi: false,
      useSchedules: true,
      isPublic: true,
      trialDays: 14,
    });
    expect((await db.query(`SELECT name, "isPublic", "useExternalApi" FROM billing.plans WHERE id = 1`))[0]).toEqual({
      name: 'Plano Completo',
      isPublic: false,
      useExternalApi: true,
    });
  });

  it('announces every plan (plan.updated) so that copies elsewhere can follow', async () => {
    const name = `Anunciado ${uniqueSuffix()}`;
    await db.query(`INSERT INTO billing.plans (name, value) VALUES ($1, 99)`, [name]);
    const bus = billing.app.get(EventBus);
    const seen: PlanChangedEvent[] = [];
    const sub = bus.connection.subscribe(PlanSubjects.updated(0).replace(/0$/, '*'));
    const reading = (async () => {
      for await (const m of sub) {
        const e = m.json<PlanChangedEvent>();
        seen.push(e);
        if (e.plan.name === name) break;
      }
    })();
    await billing.app.get(PlansService).onApplicationBootstrap();
    await reading;
    expect(seen.find((e) => e.plan.name === name)?.plan).toMatchObject({ value: 99, isPublic: true });
  });
});
