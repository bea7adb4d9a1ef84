import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitAuth1732240000000 implements MigrationInterface {
  name = 'InitAuth1732240000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE auth.plans (
        id serial PRIMARY KEY,
        name varchar(100) NOT NULL,
        users int NOT NULL DEFAULT 0,
        connections int NOT NULL DEFAULT 0,
        queues int NOT NULL DEFAULT 0,
        value numeric(10,2) NOT NULL DEFAULT 0,
        "useCampaigns" boolean NOT NULL DEFAULT true,
        "useKanban" boolean NOT NULL DEFAULT true,
        "useOpenAi" boolean NOT NULL DEFAULT true,
        "useIntegrations" boolean NOT NULL DEFAULT true,
        "useSchedules" boolean NOT NULL DEFAULT true,
        "useInternalChat" boolean NOT NULL DEFAULT true,
        "useExternalApi" boolean NOT NULL DEFAULT true,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX plans_name ON auth.plans (name)`);
    await q.query(`
      CREATE TABLE auth.companies (
        id serial PRIMARY KEY,
        name varchar(100) NOT NULL,
        email varchar(200),
        phone varchar(50),
        "planId" int NOT NULL REFERENCES auth.plans(id),
        status boolean NOT NULL DEFAULT true,
        "dueDate" date NOT NULL,
        recurrence varchar(20) NOT NULL DEFAULT 'MENSAL',
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE auth.settings (
        id serial PRIMARY KEY,
        "companyId" int NOT NULL REFERENCES auth.companies(id) ON DELETE CASCADE,
        key varchar(100) NOT NULL,
        value text NOT NULL DEFAULT '',
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT settings_company_key UNIQUE ("companyId", key)
      )`);
    await q.query(`
      CREATE TABLE auth.users (
        id serial PRIMARY KEY,
        "companyId" int NOT NULL REFERENCES auth.companies(id) ON DELETE CASCADE,
        name varchar(50) NOT NULL,
        email varchar(200) NOT NULL,
        "passwordHash" varchar(200) NOT NULL,
        profile varchar(20) NOT NULL DEFAULT 'user',
        super boolean NOT NULL DEFAULT false,
        "allTicket" varchar(10) NOT NULL DEFAULT 'desabled',
        "whatsappId" int,
        "queueIds" int[] NOT NULL DEFAULT '{}',
        online boolean NOT NULL DEFAULT false,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT users_profile CHECK (profile IN ('admin', 'user', 'supervisor')),
        CONSTRAINT users_all_ticket CHECK ("allTicket" IN ('enabled', 'desabled'))
      )`);
    await q.query(`CREATE UNIQUE INDEX users_email ON auth.users (lower(email))`);
    await q.query(`CREATE INDEX users_company_name ON auth.users ("companyId", name, id)`);
    await q.query(`
      CREATE TABLE auth.login_sessions (
        id uuid PRIMARY KEY,
        "userId" int NOT NULL REFERENCES auth.users(id) ON DELETE CASCADE,
        "companyId" int NOT NULL,
        ip varchar(64),
        "userAgent" varchar(300),
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "revokedAt" timestamptz,
        "revokedReason" varchar(20)
      )`);
    await q.query(`CREATE INDEX login_sessions_active ON auth.login_sessions ("userId") WHERE "revokedAt" IS NULL`);
    await q.query(`
      CREATE TABLE auth.refresh_tokens (
        id serial PRIMARY KEY,
        "sessionId" uuid NOT NULL REFERENCES auth.login_sessions(id) ON DELETE CASCADE,
        "tokenHash" char(64) NOT NULL,
        "expiresAt" timestamptz NOT NULL,
        "usedAt" timestamptz,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX refresh_tokens_hash ON auth.refresh_tokens ("tokenHash")`);
    await q.query(`CREATE INDEX refresh_tokens_session ON auth.refresh_tokens ("sessionId")`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['refresh_tokens', 'login_sessions', 'users', 'settings', 'companies', 'plans']) {
      await q.query(`DROP TABLE IF EXISTS auth.${table}`);
    }
  }
}
