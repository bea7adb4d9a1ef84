import { SocketChannels, type PaymentEvent } from '@wa/contracts';
import { authApi } from '../../app/auth.api';
import { companyRenewed, userLoaded } from '../../app/session';
import { storeUser } from '../../app/storage';
import { onChannel, type Dispatch, type SocketHandler } from '../../realtime/use-socket-cache-sync';
import { refreshInvoices } from './billing.api';

/**
 * `company-<id>-payment` with CONCLUIDA: the invoices reload, the signed-in company takes its new due date at once,
 * and /auth/me is read again (the plan chosen at the checkout may have changed its limits and features).
 */
export function syncPaymentEvent(p: PaymentEvent, dispatch: Dispatch): void {
  if (p?.action !== 'CONCLUIDA') return;
  dispatch(refreshInvoices());
  if (p.company) dispatch(companyRenewed(p.company));
  const me = dispatch(authApi.endpoints.me.initiate(undefined, { subscribe: false, forceRefetch: true })) as {
    unwrap?: () => Promise<Parameters<typeof userLoaded>[0]>;
  };
  void me
    .unwrap?.()
    .then((user) => {
      storeUser(user);
      dispatch(userLoaded(user));
    })
    .catch(() => undefined);
}

export const billingSocket: SocketHandler[] = [
  onChannel<PaymentEvent>(SocketChannels.payment, (p, { dispatch }) => syncPaymentEvent(p, dispatch)),
];
