import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../app/notify';
import { useUpdateSettingMutation } from './settings.api';

/**
 * Saves one setting (`PUT /settings/{key}`) as the Opcoes tab does: 'Operação atualizada com sucesso.' when
 * done, the server's error otherwise. `busy` holds the keys being saved; `save` says whether it worked.
 */
export function useSaveSetting(): { save: (key: string, value: string) => Promise<boolean>; busy: ReadonlySet<string> } {
  const { t } = useTranslation();
  const [update] = useUpdateSettingMutation();
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set());

  const save = useCallback(
    async (key: string, value: string) => {
      setBusy((b) => new Set(b).add(key));
      try {
        await update({ key, value }).unwrap();
        notify.success(t('settings.toasts.updated'));
        return true;
      } catch (err) {
        notify.error(err);
        return false;
      } finally {
        setBusy((b) => {
          const next = new Set(b);
          next.delete(key);
          return next;
        });
      }
    },
    [update, t],
  );

  return { save, busy };
}
