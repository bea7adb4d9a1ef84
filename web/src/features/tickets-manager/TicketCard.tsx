import { Button, IconButton, type SystemStyleObject } from '@chakra-ui/react';
import type { TicketDto } from '@wa/contracts';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { MdPerson, MdVisibility } from 'react-icons/md';
import { ageLabel } from './age-label';
import { initials } from '../../components/ContactAvatar';
import { lastMessagePreview } from './preview';
import { lastMessageWaits, WaitingMessage } from '../../components/WaitingMessage';
import { formatPhone } from '../../app/phone';
import { colorPillStyle } from '../../app/contrast';

interface Props {
  ticket: TicketDto;
  now: Date;
  selected: boolean;
  accepting: boolean;
  onOpen(ticket: TicketDto): void;
  onAccept(ticket: TicketDto): void;
  /** a look at the conversation (spec 01: the ticket preview; an admin's spy on any ticket), when offered */
  onPreview?(ticket: TicketDto): void;
}

/**
 * The cards are plain elements styled by this one block, set on the list: a list renders dozens of
 * cards, and a Chakra component per label costs a style resolution each on the first paint.
 */
export const ticketCardCss: SystemStyleObject = {
  '& [data-card]': {
    display: 'flex',
    gap: '3',
    px: '3',
    py: '2.5',
    borderBottomWidth: '1px',
    borderLeftWidth: '4px',
    borderLeftStyle: 'solid',
    bg: 'bg',
    cursor: 'pointer',
    outline: 'none',
    _hover: { bg: 'bg.muted' },
    _focusVisible: { bg: 'bg.muted' },
  },
  '& [data-card][data-selected]': { bg: 'teal.subtle', _hover: { bg: 'teal.subtle' } },
  '& [data-card][data-status=pending]': { cursor: 'default', _hover: { bg: 'bg' } },
  '& [data-card] .avatar': {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    flexShrink: 0,
    boxSize: '10',
    borderRadius: 'full',
    bg: 'teal.subtle',
    color: 'teal.fg',
    fontWeight: 'medium',
    textStyle: 'sm',
    overflow: 'hidden',
  },
  '& [data-card] .avatar img': { width: '100%', height: '100%', objectFit: 'cover' },
  '& [data-card] .body': { flex: '1', minW: '0' },
  '& [data-card] .row': { display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '2' },
  '& [data-card] .row + .row': { mt: '0.5' },
  '& [data-card] .name': { fontWeight: 'semibold', textStyle: 'sm', truncate: true },
  '& [data-card] .msg': { textStyle: 'sm', color: 'fg.muted', truncate: true },
  '& [data-card] .pill': {
    display: 'inline-flex',
    alignItems: 'center',
    gap: '1',
    flexShrink: 0,
    px: '1.5',
    borderRadius: 'l1',
    textStyle: 'xs',
    fontWeight: 'medium',
    lineHeight: '1.25rem',
    whiteSpace: 'nowrap',
  },
  '& [data-card] .age': { bg: 'gray.subtle', color: 'gray.fg' },
  '& [data-card] .age[data-color=green]': { bg: 'green.solid', color: 'green.contrast' },
  '& [data-card] .age[data-color=orange]': { bg: 'orange.solid', color: 'orange.contrast' },
  '& [data-card] .age[data-color=red]': { bg: 'red.solid', color: 'red.contrast' },
  '& [data-card] .unread': { bg: 'green.solid', color: 'green.contrast', borderRadius: 'full', minW: '5', justifyContent: 'center' },
  '& [data-card] .tags': { display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: '1.5', mt: '1.5' },
  '& [data-card] .owner': { borderWidth: '1px', borderColor: 'border', color: 'fg' },
  '& [data-card] .tag': { borderWidth: '1px', bg: 'bg.muted' },
};

function AgePill({ since, now }: { since: string; now: Date }) {
  const { t } = useTranslation();
  const age = ageLabel(since, now);
  return (
    <span className="pill age" data-testid="ticket-age" data-color={age.color ?? 'none'}>
      {t(`tickets.age.${age.unit}`, { n: age.value })}
    </span>
  );
}

/** One ticket of a list: contact, last message, queue, unread count, owner and age. Pending tickets open only by accepting them. */
export const TicketCard = memo(function TicketCard({ ticket, now, selected, accepting, onOpen, onAccept, onPreview }: Props) {
  const { t } = useTranslation();
  const pending = ticket.status === 'pending';
  const queueColor = ticket.queue?.color ?? '#9e9e9e';
  const unread = selected ? 0 : ticket.unreadMessages;
  const name = ticket.contact?.name || formatPhone(ticket.contact?.number);

  return (
    <div
      data-card=""
      // an article of the list's feed, named by its contact: it holds controls of its own (preview, accept), which
      // a button may not; Enter or Space opens it, as a click does
      role="article"
      aria-labelledby={`ticket-${ticket.id}-name`}
      // a pending card takes the focus only from the J/K shortcuts (then A accepts it), not from Tab
      tabIndex={pending ? -1 : 0}
      onClick={pending ? undefined : () => onOpen(ticket)}
      onKeyDown={pending ? undefined : (e) => (e.key === 'Enter' || e.key === ' ') && onOpen(ticket)}
      title={pending ? t('tickets.pendingHint') : undefined}
      style={{ borderLeftColor: queueColor }}
      data-selected={selected ? '' : undefined}
      data-testid="ticket-card"
      data-ticket-id={ticket.id}
      data-ticket-uuid={ticket.uuid}
      data-status={ticket.status}
      aria-current={selected ? 'true' : undefined}
    >
      <span className="avatar" aria-hidden>
        {ticket.contact?.profilePicUrl ? <img src={ticket.contact.profilePicUrl} alt="" loading="lazy" /> : initials(name)}
      </span>
      <div className="body">
        <div className="row">
          <span className="name" id={`ticket-${ticket.id}-name`} data-testid="ticket-contact">
            {name}
          </span>
          <AgePill since={ticket.updatedAt} now={now} />
        </div>
        <div className="row">
          <span className="msg" data-testid="ticket-last-message">
            {lastMessageWaits(ticket) ? <WaitingMessage /> : lastMessagePreview(ticket.lastMessage)}
          </span>
          {unread > 0 && (
            <span className="pill unread" aria-label={t('tickets.unread', { count: unread })} data-testid="ticket-unread">
              {unread}
            </span>
          )}
        </div>
        <div className="tags">
          <span className="pill queue" style={colorPillStyle(queueColor)} data-testid="ticket-queue">
            {ticket.queue?.name ?? t('tickets.noQueue')}
          </span>
          {ticket.user && (
            <span className="pill owner" title={t('tickets.owner', { name: ticket.user.name })} data-testid="ticket-owner">
              <MdPerson />
              {ticket.user.name}
            </span>
          )}
          {ticket.tags?.map((tag) => (
            <span key={tag.id} className="pill tag" style={{ borderColor: tag.color }}>
              {tag.name}
            </span>
          ))}
          {onPreview && (
            <IconButton
              size="2xs"
              variant="ghost"
              ml="auto"
              aria-label={t('tickets.preview')}
              title={t('tickets.preview')}
              onClick={(e) => {
                e.stopPropagation();
                onPreview(ticket);
              }}
              data-testid="ticket-preview"
            >
              <MdVisibility />
            </IconButton>
          )}
          {pending && (
            <Button
              size="2xs"
              colorPalette="teal"
              ml={onPreview ? undefined : 'auto'}
              loading={accepting}
              onClick={(e) => {
                e.stopPropagation();
                onAccept(ticket);
              }}
              data-testid="ticket-accept"
            >
              {t('chat.accept')}
            </Button>
          )}
        </div>
      </div>
    </div>
  );
});
