import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Internal chat (spec 02 "Chat"): a company's conversations between its users. A chat has an owner (who edits
 * and deletes it) and members, each with their unread count; its messages are kept in order.
 */
export class Chats1732240000023 implements MigrationInterface {
  name = 'Chats1732240000023';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS tickets.chats (
        id serial PRIMARY KEY,
        uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
        "companyId" int NOT NULL,
        title varchar(100) NOT NULL,
        "ownerId" int NOT NULL,
        "lastMessage" text NOT NULL DEFAULT '',
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE IF NOT EXISTS tickets.chat_users (
        "chatId" int NOT NULL REFERENCES tickets.chats(id) ON DELETE CASCADE,
        "userId" int NOT NULL,
        "companyId" int NOT NULL,
        unreads int NOT NULL DEFAULT 0,
        PRIMARY KEY ("chatId", "userId")
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS chat_users_user ON tickets.chat_users ("companyId", "userId")`);
    await q.query(`
      CREATE TABLE IF NOT EXISTS tickets.chat_messages (
        id bigserial PRIMARY KEY,
        "chatId" int NOT NULL REFERENCES tickets.chats(id) ON DELETE CASCADE,
        "companyId" int NOT NULL,
        "senderId" int NOT NULL,
        message text NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS chat_messages_chat ON tickets.chat_messages ("chatId", id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS tickets.chat_messages`);
    await q.query(`DROP TABLE IF EXISTS tickets.chat_users`);
    await q.query(`DROP TABLE IF EXISTS tickets.chats`);
  }
}
