/** What changed hands in a ticket update, and the names the customer is told. */
export interface TransferChange {
  fromQueueId: number | null;
  toQueueId: number | null;
  fromUserId: number | null;
  toUserId: number | null;
  queueName: string | null;
  userName: string | null;
}

const AUTO = '*Mensagem automática*:\n';
const WAIT = '\naguarde, já vamos te atender!';

/**
 * The message the customer gets when their conversation is transferred (setting `sendMsgTransfTicket`),
 * in the words of the product the spec describes: another department, another agent, or both. Null when
 * nothing was transferred (an agent taking a pending ticket is no transfer: it had no agent before).
 */
export function transferNotice(c: TransferChange): string | null {
  const queueMoved = c.toQueueId !== null && c.toQueueId !== c.fromQueueId && Boolean(c.queueName);
  const userMoved = c.toUserId !== null && c.fromUserId !== null && c.toUserId !== c.fromUserId && Boolean(c.userName);
  if (queueMoved && userMoved)
    return `${AUTO}Você foi transferido para o departamento *${c.queueName}* e contará com a presença de *${c.userName}*${WAIT}`;
  if (queueMoved) return `${AUTO}Você foi transferido para o departamento *${c.queueName}*${WAIT}`;
  if (userMoved) return `${AUTO}Foi transferido para o atendente *${c.userName}*${WAIT}`;
  return null;
}
