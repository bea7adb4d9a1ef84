import { SocketChannels, type SettingsChannelPayload } from '@wa/contracts';
import { authApi } from '../../app/auth.api';
import { plain } from '../../app/cache';
import { companySettingChanged } from '../../app/session';
import type { RootState } from '../../app/store';
import { onChannel, type Dispatch, type SocketHandler } from '../../realtime/use-socket-cache-sync';
import { withSetting } from './settings-rules';

/**
 * `company-<id>-settings` (to everyone of the company, a secret already masked): the cached `GET /settings`
 * list (the settings page, the queue dialog) and the signed-in user's `company.settings` take the new value.
 */
export function syncSettingsEvent(p: SettingsChannelPayload, state: RootState, dispatch: Dispatch): void {
  if (p.action !== 'update') return;
  const { key, value } = p.setting;
  dispatch(authApi.util.updateQueryData('settings', undefined, (d) => withSetting(plain(d), key, value)));
  if (state.session.user?.company?.settings?.some((s) => s.key === key)) dispatch(companySettingChanged({ key, value }));
}

export const settingsSocket: SocketHandler[] = [
  onChannel<SettingsChannelPayload>(SocketChannels.settings, (p, { state, dispatch }) => syncSettingsEvent(p, state(), dispatch)),
];
