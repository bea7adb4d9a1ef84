import { latestTicketSql } from '../conversation/core/tickets.repository.js';

/** The SQL of api-messages.service.ts, by name. */

/** How long an Idempotency-Key's first answer is kept. */
export const IDEMPOTENCY_TTL_H = 24;

export const UPDATE_API_REQUESTS_RESPONSE = `UPDATE tickets.api_requests SET response = $3 WHERE "connectionId" = $1 AND key = $2 AND "companyId" = $4`;

export const DELETE_EXPIRED_API_REQUEST = `DELETE FROM tickets.api_requests WHERE "connectionId" = $1 AND key = $2 AND "companyId" = $3 AND "createdAt" < now() - interval '${IDEMPOTENCY_TTL_H} hours'`;

export const CLAIM_API_REQUEST = `INSERT INTO tickets.api_requests ("connectionId", key, "companyId") VALUES ($1, $2, $3) ON CONFLICT ("connectionId", key) DO NOTHING RETURNING key`;

export const SELECT_API_REQUEST_RESPONSE = `SELECT response FROM tickets.api_requests WHERE "connectionId" = $1 AND key = $2 AND "companyId" = $3`;

export const INSERT_CONTACT_OF_NUMBER = `INSERT INTO tickets.contacts ("companyId", name, number) VALUES ($1, $2, $2) ON CONFLICT ("companyId", number) DO NOTHING RETURNING id`;

/**
 * A message the connection $3 of the company $2 sent through the API, by its id $1, with its contact's number (none: ''),
 * in one statement: the status an integrator asks for (GET /api/messages/{id}).
 */
export const SELECT_API_MESSAGE = `SELECT m.*, coalesce(c.number, '') AS "contactNumber"
         FROM tickets.messages m
         LEFT JOIN tickets.contacts c ON c.id = m."contactId" AND c."companyId" = m."companyId"
        WHERE m.id = $1 AND m."companyId" = $2 AND m."whatsappId" = $3 AND m."fromMe" AND m."viaApi"`;

export const LOCK_CONTACT_TICKET = `SELECT pg_advisory_xact_lock(hashtext('api-ticket:' || $1::text), $2)`;

/**
 * What a send needs, in one statement: the connection $2 of the company $1 (its status), the company's contact of
 * the number $3, and the ticket a send to it goes into (latestTicketSql: one still going, else one touched within
 * $4), with that row's version and an id for the message taken from its sequence.
 */
export const LOOK_UP = `SELECT w.status AS "connectionStatus", k.id AS "knownContactId", k."isGroup" AS "knownIsGroup", v.*,
              (SELECT x.xmin::text FROM tickets.tickets x WHERE x.id = v.id) AS "rowVersion",
              nextval('tickets.messages_id_seq')::text AS "nextMessageId"
         FROM tickets.connections w
         LEFT JOIN tickets.contacts k ON k."companyId" = w."companyId" AND k.number = $3
         LEFT JOIN LATERAL (${latestTicketSql('w."companyId"', 'k.id', 'w.id', '$4')}) v ON true
        WHERE w.id = $2 AND w."companyId" = $1`;
