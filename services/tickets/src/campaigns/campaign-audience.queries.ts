/** The SQL of campaign-audience.ts, by name. */

export const SELECT_COMPANY_TAG = `SELECT id FROM tickets.tags WHERE id = $2 AND "companyId" = $1`;

/**
 * A page of the company's ($1) contacts carrying the tag $2 on one of their tickets, by id after $3, at most $4:
 * from the tag's tickets (ticket_tags_tag), so a large company with a small tag reads little. Groups are no audience.
 */
export const SELECT_TAG_CONTACTS_PAGE = `SELECT c.id, c.name, c.number, c.email FROM tickets.contacts c
   WHERE c.id IN (SELECT t."contactId" FROM tickets.ticket_tags tt JOIN tickets.tickets t ON t.id = tt."ticketId"
                   WHERE tt."tagId" = $2 AND tt."companyId" = $1 AND t."companyId" = $1 AND t."contactId" > $3)
     AND c."companyId" = $1 AND NOT c."isGroup"
   ORDER BY c.id LIMIT $4`;

export const SELECT_COMPANY_FILE_LIST = `SELECT id, name, message FROM tickets.file_lists WHERE id = $2 AND "companyId" = $1`;

/** The list's options that have a file, in the list's order. */
export const SELECT_FILE_LIST_FILES = `SELECT name, path, "mediaType" FROM tickets.file_list_options
   WHERE "fileListId" = $2 AND "companyId" = $1 AND path IS NOT NULL ORDER BY position, id`;
