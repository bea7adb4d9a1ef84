import { SocketChannels, type ScheduleChannelPayload } from '@wa/contracts';
import type { RootState } from '../../app/store';
import { onChannel, type Dispatch, type SocketHandler } from '../../realtime/use-socket-cache-sync';
import { changeScheduleLists } from './schedules.api';

/** `company-<id>-schedule` (to the author and the admins): the calendar ranges and an open schedule dialog follow it. */
export function syncScheduleEvent(p: ScheduleChannelPayload, state: RootState, dispatch: Dispatch): void {
  changeScheduleLists(state, dispatch, p.action === 'delete' ? { removed: p.scheduleId } : { schedule: p.schedule });
}

export const schedulesSocket: SocketHandler[] = [
  onChannel<ScheduleChannelPayload>(SocketChannels.schedule, (p, { state, dispatch }) => syncScheduleEvent(p, state(), dispatch)),
];
