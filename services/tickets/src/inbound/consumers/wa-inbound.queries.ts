/** The SQL of wa-inbound.consumer.ts, by name. */

export const SELECT_MESSAGES_BY_ID = 'SELECT * FROM tickets.messages WHERE id = ANY($1::bigint[])';

export const SELECT_CONTACTS_BY_ID = 'SELECT * FROM tickets.contacts WHERE id = ANY($1::int[])';

export const SELECT_CONNECTIONS_BY_ID = 'SELECT id, "queueIds" FROM tickets.connections WHERE id = ANY($1::int[])';

export const SELECT_DELETED_COMPANIES_BY_ID = `SELECT id FROM tickets.deleted_companies WHERE id = ANY($1::int[])`;
