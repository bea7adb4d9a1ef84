/** The bot's statements (BotService): what its turn locks and reads in one round trip. */

/**
 * The tickets named by (company, id) pairs ($1, $2 arrays), locked, with their contact and their first
 * message and first agent's message: what the bot reads of a ticket. The GROUP BY keeps each min() to the
 * ticket's own messages (its index): without it PostgreSQL may read messages in id order from the oldest
 * until one of the ticket's turns up, a walk through every message stored before the conversation began.
 * For a conversation the bot has not seen, whether its contact was asked for a rating (a closed ticket on the
 * connection waiting for one): one probe of `tickets_rating_asked` per such ticket, in the select list so it
 * stays a probe (joined, the plan a transaction keeps read every closed ticket by bitmap).
 */
export const LOCK_TICKETS = `
  SELECT t.id, t."companyId", t.status, t."userId", t."queueId", t."whatsappId", t."contactId", t."isGroup", t.chatbot, t."botState",
         c.name AS "contactName", c.number AS "contactNumber",
         (SELECT min(m.id) FROM tickets.messages m WHERE m."ticketId" = t.id GROUP BY m."ticketId") AS "firstMessageId",
         (SELECT min(m.id) FROM tickets.messages m WHERE m."ticketId" = t.id AND m."fromMe" AND NOT m."isBot" GROUP BY m."ticketId") AS "firstAgentMessageId",
         CASE WHEN t."botState" IS NULL
              THEN EXISTS (SELECT 1 FROM tickets.tickets r
                            WHERE r."contactId" = t."contactId" AND r."whatsappId" = t."whatsappId" AND r."ratingAskedAt" IS NOT NULL AND r.status = 'closed')
              ELSE false END AS "ratingAsked"
    FROM tickets.tickets t
    JOIN unnest($1::int[], $2::int[]) AS k(company, id) ON t."companyId" = k.company AND t.id = k.id
    JOIN tickets.contacts c ON c.id = t."contactId"
   ORDER BY t.id FOR UPDATE OF t`;

/**
 * What the bot reads of a connection (alias w) to answer on it: its greeting and bot settings, its queues in menu
 * order and their options, and the bot's settings of its company ($3: their keys), as one JSON object. A queue or
 * option of another company is never on a connection's menu, whatever its ids say.
 */
export const CONNECTION_MENU = `json_build_object(
         'greetingMessage', w."greetingMessage", 'bot', w.bot,
         'queues', COALESCE((SELECT json_agg(json_build_object(
                     'id', q.id, 'name', q.name, 'greetingMessage', q."greetingMessage", 'outOfHoursMessage', q."outOfHoursMessage",
                     'schedules', q.schedules, 'integrationId', q."integrationId", 'mediaPath', q."mediaPath",
                     'promptId', COALESCE(q."promptId", (SELECT p.id FROM tickets.prompts p WHERE p."queueId" = q.id AND p."companyId" = q."companyId" ORDER BY p.id LIMIT 1)))
                     ORDER BY q."orderQueue" ASC NULLS LAST, lower(q.name), q.id)
                     FROM tickets.queues q WHERE q.id = ANY(w."queueIds") AND q."companyId" = w."companyId"), '[]'),
         'options', COALESCE((SELECT json_agg(json_build_object(
                     'id', o.id, 'queueId', o."queueId", 'parentId', o."parentId", 'option', o.option, 'title', o.title, 'message', o.message, 'mediaPath', o."mediaPath"))
                     FROM tickets.queue_options o JOIN tickets.queues q ON q.id = o."queueId" AND q."companyId" = w."companyId"
                    WHERE o."queueId" = ANY(w."queueIds") AND o."companyId" = w."companyId"), '[]'),
         'settings', COALESCE((SELECT json_object_agg(s.key, s.value) FROM tickets.company_settings s WHERE s."companyId" = w."companyId" AND s.key = ANY($3::text[])), '{}'))`;

/**
 * LOCK_TICKETS, and with the first ticket of each connection (in id order) that connection's menu
 * (CONNECTION_MENU; null when the connection is gone): the bot's turn reads all it needs in one round trip.
 */
export const LOCK_TICKETS_WITH_MENUS = `
  WITH locked AS MATERIALIZED (${LOCK_TICKETS})
  SELECT l.*,
         CASE WHEN l.id = min(l.id) OVER (PARTITION BY l."companyId", l."whatsappId")
              THEN (SELECT ${CONNECTION_MENU} FROM tickets.connections w WHERE w.id = l."whatsappId" AND w."companyId" = l."companyId") END AS menu
    FROM locked l
   ORDER BY l.id`;

/**
 * Whether the bot is done with a ticket (alias t) in a company that keeps no working hours (scheduleType
 * disabled): nothing it could say there (botReply answers nothing for them). Read without a lock: only the bot's
 * own lane and the expiry sweep change botState, and neither takes a ticket out of `done`.
 */
export const BOT_DONE = `(t."botState"->>'step' = 'done'
     AND COALESCE((SELECT s.value FROM tickets.company_settings s WHERE s."companyId" = t."companyId" AND s.key = 'scheduleType'), 'disabled') = 'disabled')`;

/** Of the tickets named by (company, id) pairs, those the bot is done with (BOT_DONE). */
export const DONE_TICKETS = `
  SELECT t.id
    FROM tickets.tickets t
    JOIN unnest($1::int[], $2::int[]) AS k(company, id) ON t."companyId" = k.company AND t.id = k.id
   WHERE ${BOT_DONE}`;

export const DELEGATED_TURN = `SELECT t.id, t."companyId", t."contactId", t."botState", c.name AS "contactName", c.number AS "contactNumber", m.body
         FROM tickets.tickets t JOIN tickets.contacts c ON c.id = t."contactId" JOIN tickets.messages m ON m.id = $3 AND m."ticketId" = t.id
        WHERE t.id = $1 AND t."companyId" = $2`;

export const HAND_OVER_TICKET = `UPDATE tickets.tickets SET "botState" = $3, chatbot = false, "updatedAt" = now() WHERE id = $1 AND "companyId" = $2`;

export const KEEP_TYPEBOT_SESSION = `UPDATE tickets.tickets SET "botState" = $3 WHERE id = $1 AND "companyId" = $2`;

export const LOCK_RATING_ASKED = `SELECT id, "ratingAskedAt" > now() - $5::interval AS fresh FROM tickets.tickets
        WHERE "contactId" = $1 AND "whatsappId" = $2 AND "companyId" = $3 AND "ratingAskedAt" IS NOT NULL AND status = 'closed' AND id <> $4
        ORDER BY "ratingAskedAt" DESC LIMIT 1 FOR UPDATE`;

export const SETTLE_RATING = `UPDATE tickets.tickets SET "ratingAskedAt" = NULL, rating = COALESCE($3::smallint, rating) WHERE id = $1 AND "companyId" = $2`;

export const CONNECTION_BOT = `SELECT bot FROM tickets.connections WHERE id = $1 AND "companyId" = $2`;

export const CLOSE_RATED_TICKET = `UPDATE tickets.tickets SET status = 'closed', chatbot = false, "unreadMessages" = 0, "botState" = $3, "updatedAt" = now() WHERE id = $1 AND "companyId" = $2`;

/** The bot's new place in the menu of tickets it locked (ids $1) and did not answer: state, chatbot, queue, and whether it shows (updatedAt). */
export const PLACE_TICKETS = `UPDATE tickets.tickets t SET "botState" = u.state, chatbot = u.chatbot, "queueId" = u.queue,
                "updatedAt" = CASE WHEN u.bump THEN now() ELSE t."updatedAt" END
           FROM unnest($1::int[], $2::jsonb[], $3::bool[], $4::int[], $5::bool[]) AS u(id, state, chatbot, queue, bump)
          WHERE t.id = u.id`;
