import { IconButton, Menu, Portal } from '@chakra-ui/react';
import type { TicketDto } from '@wa/contracts';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdMoreVert } from 'react-icons/md';
import { useNavigate } from 'react-router-dom';
import { notify } from '../../app/notify';
import { selectIsAdmin, selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { canSchedule } from '../../app/plan-flags';
import { useDeleteTicketMutation } from '../tickets/tickets.api';
import { TransferTicketModal } from './TransferTicketModal';

// the schedule dialog (and its contact search) loads when first asked for
const ScheduleDialog = lazy(() => import('../schedules/ScheduleDialog').then((m) => ({ default: m.ScheduleDialog })));

type Option = 'schedule' | 'transfer' | 'delete';

/** spec 01 §2: the ticket options menu (schedule a message to the contact, when the plan has schedules; transfer; delete for admins). */
export function TicketOptionsMenu({ ticket }: { ticket: TicketDto }) {
  const { t } = useTranslation();
  const isAdmin = useAppSelector(selectIsAdmin);
  const schedules = canSchedule(useAppSelector(selectUser));
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<Option | null>(null);
  const [remove, { isLoading: deleting }] = useDeleteTicketMutation();

  async function confirmDelete() {
    try {
      await remove(ticket.id).unwrap();
      notify.success(t('ticketOptions.deleted'));
      setDialog(null);
      navigate('/tickets', { replace: true });
    } catch (err) {
      notify.error(err);
    }
  }

  return (
    <>
      <Menu.Root lazyMount unmountOnExit onSelect={(d) => setDialog(d.value as Option)}>
        <Menu.Trigger asChild>
          <IconButton variant="ghost" size="sm" aria-label={t('ticketOptions.label')} data-testid="ticket-options">
            <MdMoreVert />
          </IconButton>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content>
              {schedules && (
                <Menu.Item value="schedule" data-testid="ticket-option-schedule">
                  {t('ticketOptions.schedule')}
                </Menu.Item>
              )}
              <Menu.Item value="transfer" data-testid="ticket-option-transfer">
                {t('ticketOptions.transfer')}
              </Menu.Item>
              {isAdmin && (
                <Menu.Item value="delete" color="fg.error" data-testid="ticket-option-delete">
                  {t('ticketOptions.delete')}
                </Menu.Item>
              )}
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
      {dialog === 'schedule' && (
        <Suspense fallback={null}>
          <ScheduleDialog
            schedule={null}
            forContact={{ id: ticket.contactId, name: ticket.contact?.name, number: ticket.contact?.number }}
            onClose={() => setDialog(null)}
          />
        </Suspense>
      )}
      {dialog === 'transfer' && <TransferTicketModal ticket={ticket} onClose={() => setDialog(null)} />}
      <ConfirmDialog
        open={dialog === 'delete'}
        title={t('ticketOptions.deleteTitle', { name: ticket.contact?.name ?? '' })}
        message={t('ticketOptions.deleteMessage')}
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDialog(null)}
      />
    </>
  );
}
