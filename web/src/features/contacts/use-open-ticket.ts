import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { notify } from '../../app/notify';
import { selectUser } from '../../app/session';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { ticketsApi } from '../tickets/tickets.api';
import { conflictHolder } from './contact-rules';
import { useCreateTicketMutation } from './contacts.api';

/**
 * Opens a conversation with a contact and goes to it (spec 01 §4): the caller takes it at once. When
 * someone already holds one, the caller's own is opened; another agent's is named in a warning.
 */
export function useOpenTicket() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const me = useAppSelector(selectUser);
  const [create, state] = useCreateTicketMutation();

  async function open(contactId: number, opts: { queueId?: number | null; whatsappId?: number | null } = {}): Promise<boolean> {
    try {
      const ticket = await create({
        contactId,
        status: 'open',
        userId: me?.id ?? null,
        queueId: opts.queueId ?? null,
        whatsappId: opts.whatsappId ?? null,
      }).unwrap();
      navigate(`/tickets/${ticket.uuid}`);
      return true;
    } catch (err) {
      const holder = conflictHolder(err);
      if (holder && holder.userId === me?.id) {
        const held = await dispatch(ticketsApi.endpoints.ticket.initiate(holder.ticketId, { subscribe: false }))
          .unwrap()
          .catch(() => null);
        if (held) {
          navigate(`/tickets/${held.uuid}`);
          return true;
        }
      }
      if (holder) notify.warning(t('contacts.heldBy', { userName: holder.userName || t('contacts.someone') }));
      else notify.error(err);
      return false;
    }
  }

  return { open, opening: state.isLoading };
}
