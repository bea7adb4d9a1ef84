import { SocketChannels, type QueueChannelPayload } from '@wa/contracts';
import { onChannel, type Dispatch, type SocketHandler } from '../../realtime/use-socket-cache-sync';
import { queueEventChange } from './queue-rules';
import { changeQueueList } from './queues.api';

/** `company-<id>-queue`: the queues list (read by the queues page and the queue pickers) follows, in its order. */
export function syncQueueEvent(p: QueueChannelPayload, dispatch: Dispatch): void {
  changeQueueList(dispatch, queueEventChange(p));
}

export const queuesSocket: SocketHandler[] = [
  onChannel<QueueChannelPayload>(SocketChannels.queue, (p, { dispatch }) => syncQueueEvent(p, dispatch)),
];
