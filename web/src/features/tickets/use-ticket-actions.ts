import type { TicketDto } from '@wa/contracts';
import { useNavigate } from 'react-router-dom';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { notify } from '../../app/notify';
import { useTicketsView } from './tickets-context';
import { useUpdateTicketMutation } from './tickets.api';

/** The status transitions of spec 01 §4 "Ticket status", with where the user goes after each. */
export function useTicketActions() {
  const [update, state] = useUpdateTicketMutation();
  const user = useAppSelector(selectUser);
  const navigate = useNavigate();
  const { setTab } = useTicketsView();

  async function run(ticket: TicketDto, body: Parameters<typeof update>[0], after: (t: TicketDto) => void) {
    try {
      const updated = await update(body).unwrap();
      after(updated ?? ticket);
    } catch (err) {
      notify.error(err);
    }
  }

  return {
    busyId: state.isLoading ? state.originalArgs?.id : undefined,
    /** pending → open: the user becomes the owner; the chat opens */
    accept: (t: TicketDto) =>
      run(t, { id: t.id, status: 'open', userId: user?.id ?? null }, (u) => {
        setTab('open');
        navigate(`/tickets/${u.uuid}`);
      }),
    /** open → pending: the owner is cleared */
    giveBack: (t: TicketDto) => run(t, { id: t.id, status: 'pending', userId: null }, () => navigate('/tickets')),
    /** open or pending → closed: with the current user and queue, integration off, no prompt; the chat closes */
    resolve: (t: TicketDto) =>
      run(t, { id: t.id, status: 'closed', userId: user?.id ?? null, queueId: t.queueId, useIntegration: false, promptId: null }, () =>
        navigate('/tickets'),
      ),
    /** closed → open: the user becomes the owner */
    reopen: (t: TicketDto) =>
      run(t, { id: t.id, status: 'open', userId: user?.id ?? null }, (u) => {
        setTab('open');
        navigate(`/tickets/${u.uuid}`);
      }),
  };
}
