/** The SQL of chats.ts, by name. */

export const CHATS_PAGE_SIZE = 20;

export const CHAT_MESSAGES_PAGE_SIZE = 30;

export const SELECT_CHATS_PAGE = `SELECT c.*, count(*) OVER () AS total FROM tickets.chats c
         JOIN tickets.chat_users u ON u."chatId" = c.id AND u."userId" = $2
        WHERE c."companyId" = $1 ORDER BY c."updatedAt" DESC, c.id DESC OFFSET $3 LIMIT ${CHATS_PAGE_SIZE}`;

export const INSERT_CHATS = `INSERT INTO tickets.chats (uuid, "companyId", title, "ownerId") VALUES ($1, $2, $3, $4) RETURNING *`;

export const UPDATE_CHATS_TITLE = `UPDATE tickets.chats SET title = COALESCE($2, title), "updatedAt" = now() WHERE id = $1 AND "companyId" = $3`;

export const SELECT_CHAT_USERS_BY_CHAT_ID = `SELECT "userId" FROM tickets.chat_users WHERE "chatId" = $1 AND "companyId" = $2`;

export const SELECT_CHATS_BY_ID = `SELECT * FROM tickets.chats WHERE id = $1 AND "companyId" = $2`;

export const DELETE_CHATS_BY_ID = `DELETE FROM tickets.chats WHERE id = $1 AND "companyId" = $2`;

export const MARK_CHAT_READ = `UPDATE tickets.chat_users SET unreads = 0 WHERE "chatId" = $1 AND "userId" = $2 AND "companyId" = $3`;

export const COUNT_CHAT_MESSAGES = `SELECT count(*)::int AS n FROM tickets.chat_messages WHERE "chatId" = $1 AND "companyId" = $2`;

export const SELECT_CHAT_MESSAGES_PAGE = `SELECT * FROM tickets.chat_messages WHERE "chatId" = $1 AND "companyId" = $3 ORDER BY id DESC OFFSET $2 LIMIT ${CHAT_MESSAGES_PAGE_SIZE}`;

export const INSERT_CHAT_MESSAGES = `INSERT INTO tickets.chat_messages ("chatId", "companyId", "senderId", message) VALUES ($1, $2, $3, $4) RETURNING *`;

export const UPDATE_CHATS_LAST_MESSAGE = `UPDATE tickets.chats SET "lastMessage" = $2, "updatedAt" = now() WHERE id = $1 AND "companyId" = $3`;

export const COUNT_UNREAD_FOR_OTHERS = `UPDATE tickets.chat_users SET unreads = unreads + 1 WHERE "chatId" = $1 AND "userId" <> $2 AND "companyId" = $3`;

export const DELETE_CHAT_USERS_NOT_IN = `DELETE FROM tickets.chat_users WHERE "chatId" = $1 AND NOT ("userId" = ANY($2::int[])) AND "companyId" = $3`;

export const INSERT_CHAT_USERS = `INSERT INTO tickets.chat_users ("chatId", "userId", "companyId") SELECT $1, u, $3 FROM unnest($2::int[]) AS u ON CONFLICT ("chatId", "userId") DO NOTHING`;

export const SELECT_CHAT_USERS_OF_CHATS = `SELECT "chatId", "userId", unreads FROM tickets.chat_users WHERE "chatId" = ANY($1::int[]) AND "companyId" = $2 ORDER BY "userId"`;

/** The chat $2 (its uuid when `byUuid`, else its id) of the company $1 whose member $3 is (locked when `lock`). */
export function memberChatSql(byUuid: boolean, lock: boolean): string {
  return `SELECT c.* FROM tickets.chats c JOIN tickets.chat_users u ON u."chatId" = c.id AND u."userId" = $3
        WHERE c."companyId" = $1 AND ${byUuid ? 'c.uuid = $2::uuid' : 'c.id = $2::int'}${lock ? ' FOR UPDATE OF c' : ''}`;
}
