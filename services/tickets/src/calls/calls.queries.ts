/** The SQL of the calls consumer (wa-calls.consumer.ts), by name. */

/**
 * Whether a call was answered already: its missed-call line is stored under the call's id (unique per connection, as
 * a message's WhatsApp id): `$1` company, `$2` connection, `$3` call id.
 */
export const SELECT_CALL_LINE = `SELECT id FROM tickets.messages WHERE "companyId" = $1 AND "whatsappId" = $2 AND wid = $3 LIMIT 1`;

/** A message just stored, by id, in the company (`$1` company, `$2` id). */
export const SELECT_MESSAGE = `SELECT * FROM tickets.messages WHERE "companyId" = $1 AND id = $2`;

/** A contact, by id, in the company (`$1` company, `$2` id). */
export const SELECT_CONTACT = `SELECT * FROM tickets.contacts WHERE "companyId" = $1 AND id = $2`;
