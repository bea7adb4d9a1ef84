/** The SQL of the kept campaign messages (campaign-sent.consumer.ts, campaign-replies.ts), by name. */

/**
 * Campaign messages that left their connection (company, connection, number, campaign, wid, body, sentAt):
 * each contact's last one per connection is kept; an older one arriving late changes nothing.
 */
export const KEEP_CAMPAIGN_MESSAGES = `INSERT INTO tickets.campaign_messages AS k ("companyId", "whatsappId", number, "campaignId", wid, body, "sentAt")
   SELECT DISTINCT ON (u.company, u.whatsapp, u.number) u.company, u.whatsapp, u.number, u.campaign, u.wid, u.body, u.sent_at
     FROM unnest($1::int[], $2::int[], $3::text[], $4::int[], $5::text[], $6::text[], $7::timestamptz[])
          AS u(company, whatsapp, number, campaign, wid, body, sent_at)
    ORDER BY u.company, u.whatsapp, u.number, u.sent_at DESC
   ON CONFLICT ("companyId", "whatsappId", number) DO UPDATE
      SET "campaignId" = EXCLUDED."campaignId", wid = EXCLUDED.wid, body = EXCLUDED.body, "sentAt" = EXCLUDED."sentAt"
    WHERE k."sentAt" <= EXCLUDED."sentAt"`;

/** What is older than 7 days is no longer what a contact answers. */
export const PURGE_CAMPAIGN_MESSAGES = `DELETE FROM tickets.campaign_messages WHERE "sentAt" < now() - interval '7 days'`;

/**
 * The campaign message each new ticket's contact answers, taken (deleted: shown once) and stored in the ticket
 * as ours, just before the answer: one statement, so it is moved whole or not at all. Keys by primary key
 * (company, connection, number); each with the ticket, the contact, the answer's sentAt and createdAt. A message
 * sent after the answer (beyond WhatsApp's whole seconds) is not what it answers, and stays.
 */
export const TAKE_ANSWERED_CAMPAIGN_MESSAGES = `WITH taken AS (
     DELETE FROM tickets.campaign_messages k
      USING unnest($1::int[], $2::int[], $3::text[], $4::int[], $5::int[], $6::timestamptz[], $7::timestamptz[])
            AS u(company, whatsapp, number, ticket, contact, answered_at, answer_created)
      WHERE k."companyId" = u.company AND k."whatsappId" = u.whatsapp AND k.number = u.number
        AND k."sentAt" > now() - interval '7 days' AND k."sentAt" <= u.answered_at + interval '5 seconds'
     RETURNING k.*, u.ticket, u.contact, u.answered_at, u.answer_created)
   INSERT INTO tickets.messages ("companyId", "ticketId", "contactId", "whatsappId", wid, body, "fromMe", "mediaType", "sentAt", ack, read, "createdAt", "updatedAt")
   SELECT t."companyId", t.ticket, t.contact, t."whatsappId", t.wid, t.body, true, 'chat',
          least(t."sentAt", t.answered_at - interval '1 millisecond'), 1, true,
          t.answer_created - interval '1 millisecond', t.answer_created - interval '1 millisecond'
     FROM taken t
   ON CONFLICT ("whatsappId", wid) DO NOTHING
   RETURNING *`;
