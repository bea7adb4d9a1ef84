/** What every read of a ticket (TicketRow, ticket-view.ts) selects and joins: the ticket with its contact, queue, connection and tags. */

export const TICKET_COLUMNS = `
         t.id, t.uuid, t."companyId", t.status, t."contactId", t."whatsappId", t."queueId", t."userId",
         t."lastMessage", t."unreadMessages", t."isGroup", t.chatbot, t."useIntegration", t."promptId",
         t."integrationId", t."createdAt", t."updatedAt", t."updatedAt"::text AS "sortKey",
         c.name AS "contactName", c.number AS "contactNumber", c."profilePicUrl" AS "contactPic",
         q.name AS "queueName", q.color AS "queueColor", w.name AS "whatsappName",
         (SELECT coalesce(json_agg(json_build_object('id', g.id, 'name', g.name, 'color', g.color) ORDER BY lower(g.name), g.id), '[]'::json)
            FROM tickets.ticket_tags tt JOIN tickets.tags g ON g.id = tt."tagId" WHERE tt."ticketId" = t.id) AS tags`;

export const TICKET_JOINS = `
    JOIN tickets.contacts c ON c.id = t."contactId"
    LEFT JOIN tickets.queues q ON q.id = t."queueId"
    LEFT JOIN tickets.connections w ON w.id = t."whatsappId"`;

export const TICKET_SELECT = `SELECT ${TICKET_COLUMNS} FROM tickets.tickets t ${TICKET_JOINS}`;
