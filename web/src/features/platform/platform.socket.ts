import { SocketChannels, type PlatformListEvent } from '@wa/contracts';
import { onChannel, type Dispatch, type SocketHandler } from '../../realtime/use-socket-cache-sync';
import { companiesApi } from './companies.api';
import { plansApi } from './plans.api';

/**
 * `platform-company` (to super users, spec 02 §3): the companies lists reload; a changed company's own record
 * (the Horarios tab's `GET /companies/{id}`) too.
 */
export function syncCompanyListEvent(p: PlatformListEvent, dispatch: Dispatch): void {
  const tags =
    p.action === 'update'
      ? [
          { type: 'Company' as const, id: 'LIST' },
          { type: 'Company' as const, id: p.id },
        ]
      : [{ type: 'Company' as const, id: 'LIST' }];
  dispatch(companiesApi.util.invalidateTags(tags));
}

/** `platform-plan` (to super users): the plans list reloads, and the companies lists (their rows show the plan's name). */
export function syncPlanListEvent(_p: PlatformListEvent, dispatch: Dispatch): void {
  dispatch(plansApi.util.invalidateTags(['Plan']));
}

export const platformSocket: SocketHandler[] = [
  onChannel<PlatformListEvent>(
    () => SocketChannels.companies(),
    (p, { dispatch }) => syncCompanyListEvent(p, dispatch),
  ),
  onChannel<PlatformListEvent>(
    () => SocketChannels.plans(),
    (p, { dispatch }) => syncPlanListEvent(p, dispatch),
  ),
];
