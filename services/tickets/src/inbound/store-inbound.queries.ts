/**
 * The statements of storeInbound (store-inbound.ts). The function itself is `store-inbound.sql`; its migrations
 * create it.
 */

/** One call of `tickets.store_inbound` with the fifteen arrays storeInboundArgs builds (inbound-rules.ts). */
export const STORE_INBOUND = `SELECT * FROM tickets.store_inbound($1::int[], $2::text[], $3::text[], $4::bool[],
         $5::int[], $6::text[], $7::int[], $8::int[], $9::bool[], $10::text[], $11::text[], $12::bool[], $13::text[], $14::timestamptz[], $15::bigint[])`;

/**
 * (`$4`: what the message carries besides text, the `contents` JSON: a voice note, a location, contact cards; kept
 * keys win, so a redelivery changes nothing.)
 * The stored file (mediaUrl) and the message answered (quotedMsgId, found by its WhatsApp id on the same connection)
 * of messages just stored, by their ids: `$1` ids, `$2` file keys, `$3` quoted WhatsApp ids. Never overwrites a value,
 * so a redelivery writes only what is missing.
 */
export const STORE_FILES_AND_QUOTES = `UPDATE tickets.messages m
        SET "mediaUrl" = COALESCE(m."mediaUrl", x.url),
            "quotedMsgId" = COALESCE(m."quotedMsgId", (SELECT q.id FROM tickets.messages q WHERE q."whatsappId" = m."whatsappId" AND q.wid = x.quoted)),
            contents = CASE WHEN x.contents IS NULL THEN m.contents ELSE x.contents || COALESCE(m.contents, '{}'::jsonb) END
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::jsonb[]) AS x(id, url, quoted, contents)
      WHERE m.id = x.id AND ((m."mediaUrl" IS NULL AND x.url IS NOT NULL) OR (m."quotedMsgId" IS NULL AND x.quoted IS NOT NULL)
            OR (x.contents IS NOT NULL AND NOT COALESCE(m.contents, '{}'::jsonb) @> x.contents))`;
