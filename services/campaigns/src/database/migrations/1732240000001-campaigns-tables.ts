import type { MigrationInterface, QueryRunner } from 'typeorm';
import { outboxMigration } from '@wa/server-kit';

/**
 * Contact lists and their items, campaigns and their settings, the frozen audience (one shipping row per
 * contact), opt-outs, the per-connection daily count of sends, a copy of the connections' pace fields, and
 * the service's outbox.
 */
export class CampaignsTables1732240000001 implements MigrationInterface {
  name = 'CampaignsTables1732240000001';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of outboxMigration('campaigns').up) await q.query(sql);
    await q.query(`
      CREATE TABLE campaigns.contact_lists (
        id serial PRIMARY KEY,
        "companyId" int NOT NULL,
        name varchar(50) NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX contact_lists_company ON campaigns.contact_lists ("companyId", lower(name), id)`);
    await q.query(`
      CREATE TABLE campaigns.contact_list_items (
        id serial PRIMARY KEY,
        "companyId" int NOT NULL,
        "contactListId" int NOT NULL REFERENCES campaigns.contact_lists(id) ON DELETE CASCADE,
        name varchar(50) NOT NULL,
        number varchar(50) NOT NULL,
        email varchar(255) NOT NULL DEFAULT '',
        "isWhatsappValid" boolean NULL,
        "checkedAt" timestamptz NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT contact_list_items_one_number UNIQUE ("contactListId", number)
      )`);
    await q.query(`CREATE INDEX contact_list_items_list ON campaigns.contact_list_items ("contactListId", lower(name), id)`);
    // what the background check on WhatsApp still has to ask
    await q.query(
      `CREATE INDEX contact_list_items_unchecked ON campaigns.contact_list_items ("companyId", id) WHERE "isWhatsappValid" IS NULL`,
    );
    await q.query(`
      CREATE TABLE campaigns.campaign_settings (
        "companyId" int NOT NULL,
        key varchar(40) NOT NULL,
        value text NOT NULL,
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("companyId", key)
      )`);
    await q.query(`
      CREATE TABLE campaigns.campaigns (
        id serial PRIMARY KEY,
        "companyId" int NOT NULL,
        name varchar(50) NOT NULL,
        message1 text NOT NULL DEFAULT '', message2 text NOT NULL DEFAULT '', message3 text NOT NULL DEFAULT '',
        message4 text NOT NULL DEFAULT '', message5 text NOT NULL DEFAULT '',
        "confirmationMessage1" text NOT NULL DEFAULT '', "confirmationMessage2" text NOT NULL DEFAULT '',
        "confirmationMessage3" text NOT NULL DEFAULT '', "confirmationMessage4" text NOT NULL DEFAULT '',
        "confirmationMessage5" text NOT NULL DEFAULT '',
        status varchar(20) NOT NULL DEFAULT 'INATIVA',
        confirmation boolean NOT NULL DEFAULT false,
        "scheduledAt" timestamptz NULL,
        "completedAt" timestamptz NULL,
        "whatsappId" int NULL,
        "contactListId" int NULL REFERENCES campaigns.contact_lists(id) ON DELETE SET NULL,
        "tagListId" varchar(20) NOT NULL DEFAULT 'Nenhuma',
        "mediaPath" text NULL,
        "mediaName" text NULL,
        "fileListId" int NULL,
        "statusReason" text NULL,
        -- raised by every change of schedule or status: the start job of an older version does nothing
        version int NOT NULL DEFAULT 0,
        "startedAt" timestamptz NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT campaigns_status CHECK (status IN ('INATIVA','PROGRAMADA','EM_ANDAMENTO','CANCELADA','FINALIZADA'))
      )`);
    await q.query(`CREATE INDEX campaigns_company ON campaigns.campaigns ("companyId", id DESC)`);
    await q.query(`CREATE INDEX campaigns_due ON campaigns.campaigns ("scheduledAt") WHERE status = 'PROGRAMADA'`);
    await q.query(`CREATE INDEX campaigns_running ON campaigns.campaigns ("whatsappId") WHERE status = 'EM_ANDAMENTO'`);
    await q.query(`
      CREATE TABLE campaigns.shippings (
        id bigserial PRIMARY KEY,
        "companyId" int NOT NULL,
        "campaignId" int NOT NULL REFERENCES campaigns.campaigns(id) ON DELETE CASCADE,
        "connectionId" int NOT NULL,
        number varchar(50) NOT NULL,
        name varchar(100) NOT NULL DEFAULT '',
        email varchar(255) NOT NULL DEFAULT '',
        -- pending: to send; confirming: the confirmation went out, waiting for the answer; confirmed: answered, the message to send;
        -- queued: the message was handed to the connection's lane, waiting for WhatsApp to take it;
        -- sent, failed, invalid (not on WhatsApp), opted_out, unconfirmed (no answer in time): a row's ends
        status varchar(16) NOT NULL DEFAULT 'pending',
        "confirmationMessage" text NULL,
        "confirmationWaMessageId" varchar(64) NULL,
        "confirmationRequestedAt" timestamptz NULL,
        "confirmedAt" timestamptz NULL,
        message text NULL,
        "waMessageId" varchar(64) NULL,
        ack smallint NOT NULL DEFAULT 0,
        "sentAt" timestamptz NULL,
        "deliveredAt" timestamptz NULL,
        "readAt" timestamptz NULL,
        "failedAt" timestamptz NULL,
        "failedReason" text NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT shippings_once UNIQUE ("campaignId", number),
        CONSTRAINT shippings_status CHECK (status IN ('pending','confirming','confirmed','queued','sent','failed','invalid','opted_out','unconfirmed'))
      )`);
    // the pacer's next row on a connection
    await q.query(`CREATE INDEX shippings_due ON campaigns.shippings ("connectionId", id) WHERE status IN ('pending','confirmed')`);
    await q.query(`CREATE INDEX shippings_campaign ON campaigns.shippings ("campaignId", status)`);
    await q.query(`CREATE INDEX shippings_wa_id ON campaigns.shippings ("waMessageId") WHERE "waMessageId" IS NOT NULL`);
    await q.query(
      `CREATE INDEX shippings_confirmation_wa_id ON campaigns.shippings ("confirmationWaMessageId") WHERE "confirmationWaMessageId" IS NOT NULL`,
    );
    // an answer from a number with a confirmation waiting
    await q.query(`CREATE INDEX shippings_confirming ON campaigns.shippings ("companyId", number) WHERE status = 'confirming'`);
    // who received a campaign message from the company (opt-out applies only to them)
    await q.query(`CREATE INDEX shippings_received ON campaigns.shippings ("companyId", number) WHERE "sentAt" IS NOT NULL`);
    await q.query(`
      CREATE TABLE campaigns.opt_outs (
        "companyId" int NOT NULL,
        number varchar(50) NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("companyId", number)
      )`);
    await q.query(`
      CREATE TABLE campaigns.daily_sends (
        "connectionId" int NOT NULL,
        day date NOT NULL,
        count int NOT NULL DEFAULT 0,
        -- when the connection's last campaign send was handed to its lane (the pace goes on from it after a restart)
        "lastAt" timestamptz NULL,
        PRIMARY KEY ("connectionId", day)
      )`);
    await q.query(`
      CREATE TABLE campaigns.connections (
        id int PRIMARY KEY,
        "companyId" int NOT NULL,
        name varchar(255) NOT NULL DEFAULT '',
        "campaignDailyLimit" int NOT NULL DEFAULT 0,
        "campaignWarmup" boolean NOT NULL DEFAULT false,
        "campaignHours" varchar(11) NOT NULL DEFAULT '',
        status varchar(20) NOT NULL DEFAULT '',
        "isDefault" boolean NOT NULL DEFAULT false,
        "connectedSince" timestamptz NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        deleted boolean NOT NULL DEFAULT false
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'connections',
      'daily_sends',
      'opt_outs',
      'shippings',
      'campaigns',
      'campaign_settings',
      'contact_list_items',
      'contact_lists',
    ])
      await q.query(`DROP TABLE IF EXISTS campaigns.${t}`);
    for (const sql of outboxMigration('campaigns').down) await q.query(sql);
  }
}
