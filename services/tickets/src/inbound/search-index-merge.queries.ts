/** The message search index's pending list merged into it (PostgreSQL's own function; the pages it merged). */
export const MERGE_MESSAGE_SEARCH_LIST = `SELECT gin_clean_pending_list('tickets.messages_body_trgm'::regclass) AS pages`;
