/** The SQL of the dispatcher (shippings.repository.ts), by name. Every statement takes the company. */

/** Rows a row's life can still move on from (the campaign is not done while one is left). */
export const OPEN_STATUSES = `('pending', 'confirming', 'confirmed', 'queued')`;

/** PROGRAMADA → EM_ANDAMENTO once, whoever fires (the delayed job, the sweep): a compare-and-set. */
export const START_CAS = `UPDATE campaigns.campaigns
    SET status = 'EM_ANDAMENTO', "startedAt" = now(), "statusReason" = NULL, version = version + 1, "updatedAt" = now()
  WHERE "companyId" = $1 AND id = $2 AND status = 'PROGRAMADA' AND ("scheduledAt" IS NULL OR "scheduledAt" <= now() + interval '5 seconds')
  RETURNING id, "whatsappId", "contactListId", "tagListId"`;

/** The audience of a contact list frozen: one row per number; numbers WhatsApp refused and opted-out ones recorded as skipped. */
export const FREEZE_LIST = `INSERT INTO campaigns.shippings ("companyId", "campaignId", "connectionId", number, name, email, status)
  SELECT $1, $2, $3, i.number, i.name, i.email,
         CASE WHEN i."isWhatsappValid" = false THEN 'invalid'
              WHEN EXISTS (SELECT 1 FROM campaigns.opt_outs o WHERE o."companyId" = $1 AND o.number = i.number) THEN 'opted_out'
              ELSE 'pending' END
    FROM campaigns.contact_list_items i
   WHERE i."companyId" = $1 AND i."contactListId" = $4
  ON CONFLICT ("campaignId", number) DO NOTHING`;

/** A tag's contacts (asked of tickets) frozen the same way. */
export const FREEZE_NUMBERS = `INSERT INTO campaigns.shippings ("companyId", "campaignId", "connectionId", number, name, email, status)
  SELECT $1, $2, $3, v.number, left(v.name, 100), left(v.email, 255),
         CASE WHEN EXISTS (SELECT 1 FROM campaigns.opt_outs o WHERE o."companyId" = $1 AND o.number = v.number) THEN 'opted_out'
              ELSE 'pending' END
    FROM unnest($4::text[], $5::text[], $6::text[]) AS v(number, name, email)
  ON CONFLICT ("campaignId", number) DO NOTHING`;

export const HAS_ROWS = `SELECT EXISTS (SELECT 1 FROM campaigns.shippings WHERE "companyId" = $1 AND "campaignId" = $2) AS "has"`;

/** Campaigns whose date came (the sweep; the delayed jobs are the punctual way). */
export const DUE_CAMPAIGNS = `SELECT id, "companyId" FROM campaigns.campaigns
  WHERE status = 'PROGRAMADA' AND "scheduledAt" <= now() + interval '5 seconds' ORDER BY "scheduledAt" LIMIT 200`;

export const ARMED_CAMPAIGN = `SELECT id, "companyId", version, "scheduledAt" FROM campaigns.campaigns
  WHERE "companyId" = $1 AND id = $2 AND status = 'PROGRAMADA'`;

/** The connections with a running campaign (each gets a pacer). */
export const RUNNING_CONNECTIONS = `SELECT DISTINCT "whatsappId" AS "connectionId", "companyId" FROM campaigns.campaigns
  WHERE status = 'EM_ANDAMENTO' AND "whatsappId" IS NOT NULL`;

export const RUNNING_ON_CONNECTION = `SELECT id FROM campaigns.campaigns
  WHERE "companyId" = $1 AND "whatsappId" = $2 AND status = 'EM_ANDAMENTO' ORDER BY id`;

/** The campaign still running, held against a cancel while its row is handed over (a cancel waits for it: at most this one send). */
export const CAMPAIGN_FOR_SEND = `SELECT id, confirmation, message1, message2, message3, message4, message5,
       "confirmationMessage1", "confirmationMessage2", "confirmationMessage3", "confirmationMessage4", "confirmationMessage5",
       "mediaPath", "mediaName", "fileListId"
  FROM campaigns.campaigns WHERE "companyId" = $1 AND id = $2 AND status = 'EM_ANDAMENTO' FOR SHARE`;

/** The campaign's next row due (its first pending or confirmed one), locked; another pacer's row is skipped. */
export const NEXT_ROW = `SELECT s.id, s.number, s.name, s.email, s.status,
       EXISTS (SELECT 1 FROM campaigns.opt_outs o WHERE o."companyId" = s."companyId" AND o.number = s.number) AS "optedOut"
  FROM campaigns.shippings s
  WHERE s."companyId" = $1 AND s."campaignId" = $2 AND s.status IN ('pending', 'confirmed')
  ORDER BY s.id LIMIT 1 FOR UPDATE OF s SKIP LOCKED`;

export const SKIP_OPTED_OUT = `UPDATE campaigns.shippings SET status = 'opted_out', "updatedAt" = now() WHERE "companyId" = $1 AND id = $2`;

export const FAIL_ROW = `UPDATE campaigns.shippings SET status = 'failed', "failedAt" = now(), "failedReason" = $3, "updatedAt" = now()
  WHERE "companyId" = $1 AND id = $2`;

export const ROW_CONFIRMING = `UPDATE campaigns.shippings
    SET status = 'confirming', "confirmationMessage" = $3, "confirmationWaMessageId" = $4, "confirmationRequestedAt" = now(), "updatedAt" = now()
  WHERE "companyId" = $1 AND id = $2`;

export const ROW_QUEUED = `UPDATE campaigns.shippings SET status = 'queued', message = $3, "waMessageId" = $4, "updatedAt" = now()
  WHERE "companyId" = $1 AND id = $2`;

/** One more send on the connection's day, and when it left. */
export const COUNT_SEND = `INSERT INTO campaigns.daily_sends ("connectionId", day, count, "lastAt") VALUES ($1, $2, 1, now())
  ON CONFLICT ("connectionId", day) DO UPDATE SET count = campaigns.daily_sends.count + 1, "lastAt" = now()`;

export const SENT_ON_DAY = `SELECT count FROM campaigns.daily_sends WHERE "connectionId" = $1 AND day = $2`;

export const LAST_SEND = `SELECT extract(epoch FROM max("lastAt")) * 1000 AS "lastAt" FROM campaigns.daily_sends WHERE "connectionId" = $1`;

/** Campaigns with no row left to send end FINALIZADA (sent, failed, skipped or unconfirmed all end a row). */
export const FINISH_DONE = `UPDATE campaigns.campaigns c
    SET status = 'FINALIZADA', "completedAt" = now(), version = version + 1, "updatedAt" = now()
  WHERE c.id = ANY($1::int[]) AND c.status = 'EM_ANDAMENTO'
    AND NOT EXISTS (SELECT 1 FROM campaigns.shippings s WHERE s."campaignId" = c.id AND s.status IN ${OPEN_STATUSES})
  RETURNING c.id, c."companyId"`;

export const CANCEL_CAS = `UPDATE campaigns.campaigns SET status = 'CANCELADA', "statusReason" = $3, version = version + 1, "updatedAt" = now()
  WHERE "companyId" = $1 AND id = $2 AND status = 'EM_ANDAMENTO' RETURNING id`;

export const RESTART_CAS = `UPDATE campaigns.campaigns SET status = 'EM_ANDAMENTO', "statusReason" = NULL, "completedAt" = NULL,
       "startedAt" = COALESCE("startedAt", now()), version = version + 1, "updatedAt" = now()
  WHERE "companyId" = $1 AND id = $2 AND status = 'CANCELADA' RETURNING id, "whatsappId", "contactListId", "tagListId"`;

/** A connection's running campaigns paused (banned, logged out, failing, the plan lost campaigns): CANCELADA with the reason. */
export const PAUSE_CONNECTION = `UPDATE campaigns.campaigns SET status = 'CANCELADA', "statusReason" = $3, version = version + 1, "updatedAt" = now()
  WHERE "companyId" = $1 AND "whatsappId" = $2 AND status = 'EM_ANDAMENTO' RETURNING id`;

/** A message WhatsApp took (ack ≥ 1) for the first time: the row is sent. Answers what the conversation should show. */
export const MARK_SENT = `UPDATE campaigns.shippings s
    SET status = 'sent', "sentAt" = COALESCE(s."sentAt", to_timestamp(v.at / 1000.0)), ack = GREATEST(s.ack, v.ack), "updatedAt" = now()
   FROM unnest($2::text[], $3::int[], $4::float8[]) AS v(id, ack, at)
  WHERE s."companyId" = $1 AND s."waMessageId" = v.id AND s.status = 'queued' AND v.ack >= 1
  RETURNING s.id, s."campaignId", s."connectionId", s.number, s.message, s."waMessageId", v.at`;

/** Delivered and read as the acks rise (acks only go up, so a late or repeated one changes nothing). */
export const RAISE_ACKS = `UPDATE campaigns.shippings s
    SET ack = GREATEST(s.ack, v.ack),
        "deliveredAt" = CASE WHEN v.ack >= 3 THEN COALESCE(s."deliveredAt", to_timestamp(v.at / 1000.0)) ELSE s."deliveredAt" END,
        "readAt" = CASE WHEN v.ack >= 4 THEN COALESCE(s."readAt", to_timestamp(v.at / 1000.0)) ELSE s."readAt" END,
        "updatedAt" = now()
   FROM unnest($2::text[], $3::int[], $4::float8[]) AS v(id, ack, at)
  WHERE s."companyId" = $1 AND s."waMessageId" = v.id AND v.ack > s.ack AND s.status = 'sent'
  RETURNING s."campaignId"`;

/** A send given up or refused (the number is not on WhatsApp): its row failed, whether it was the message or the confirmation. */
export const FAIL_BY_WA_ID = `UPDATE campaigns.shippings s SET status = 'failed', "failedAt" = now(), "failedReason" = $3, "updatedAt" = now()
  WHERE s."companyId" = $1 AND ((s."waMessageId" = $2 AND s.status = 'queued') OR (s."confirmationWaMessageId" = $2 AND s.status = 'confirming'))
  RETURNING s."campaignId", s."connectionId"`;

/** An answer to a confirmation: the row's message is sent next (still paced). */
export const CONFIRM = `UPDATE campaigns.shippings s SET status = 'confirmed', "confirmedAt" = now(), "updatedAt" = now()
   FROM unnest($1::int[], $2::text[]) AS v("companyId", number)
  WHERE s."companyId" = v."companyId" AND s.number = v.number AND s.status = 'confirming'
  RETURNING s."campaignId", s."companyId"`;

/** Whether the company sent this number a campaign message (only they can opt out by answering one). */
export const RECEIVED_CAMPAIGN = `SELECT EXISTS (SELECT 1 FROM campaigns.shippings WHERE "companyId" = $1 AND number = ANY($2::text[]) AND "sentAt" IS NOT NULL) AS "received"`;

export const ADD_OPT_OUT = `INSERT INTO campaigns.opt_outs ("companyId", number) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING number`;

/** The opted-out number's rows still to go in every campaign of the company are skipped. */
export const SKIP_NUMBER = `UPDATE campaigns.shippings SET status = 'opted_out', "updatedAt" = now()
  WHERE "companyId" = $1 AND number = ANY($2::text[]) AND status IN ('pending', 'confirmed', 'confirming')
  RETURNING "campaignId"`;

/** Confirmations nobody answered in time end unconfirmed. */
export const EXPIRE_CONFIRMATIONS = `UPDATE campaigns.shippings SET status = 'unconfirmed', "updatedAt" = now()
  WHERE status = 'confirming' AND "confirmationRequestedAt" < now() - make_interval(hours => $1)
  RETURNING "campaignId", "companyId"`;
