import { Badge, Box, Button, CloseButton, Heading, HStack, Separator, Stack, Text } from '@chakra-ui/react';
import type { TicketDto } from '@wa/contracts';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdEdit, MdEvent, MdLocalOffer } from 'react-icons/md';
import { useNavigate } from 'react-router-dom';
import { notify } from '../../app/notify';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { canSchedule } from '../../app/plan-flags';
import { PickFilter } from '../../components/PickFilter';
import { useListTagsQuery, useSyncTicketTagsMutation } from '../tickets/tickets.api';
import { ContactDialog } from '../contacts/ContactDialog';
import { useContactQuery } from '../contacts/contacts.api';
import { TicketNotes } from '../notes/TicketNotes';
import { ContactAvatar } from '../../components/ContactAvatar';
import { formatPhone } from '../../app/phone';
import { colorPillStyle } from '../../app/contrast';

/** spec 01 §2 and §9: the contact drawer, 320 px on the right of the chat. */
export const CONTACT_DRAWER_WIDTH = '320px';

/** The ticket's contact: who they are (edit form), the notes of this ticket, their extra info. */
export function ContactDrawer({ ticket, onClose }: { ticket: TicketDto; onClose(): void }) {
  const { t } = useTranslation();
  const contact = useContactQuery(ticket.contactId, { refetchOnMountOrArgChange: true });
  const [editing, setEditing] = useState(false);
  const schedules = canSchedule(useAppSelector(selectUser));
  const navigate = useNavigate();
  const c = contact.data;
  return (
    <Box w={CONTACT_DRAWER_WIDTH} flexShrink={0} h="full" borderLeftWidth="1px" bg="bg" overflowY="auto" data-testid="contact-drawer">
      <HStack px="3" py="2" borderBottomWidth="1px">
        <Heading size="sm" flex="1">
          {t('contactDrawer.title')}
        </Heading>
        <CloseButton size="sm" onClick={onClose} aria-label={t('common.close')} data-testid="contact-drawer-close" />
      </HStack>
      <Stack p="4" gap="4">
        <Stack align="center" gap="1">
          <ContactAvatar name={ticket.contact?.name} src={ticket.contact?.profilePicUrl} size="md" />
          <Text fontWeight="semibold" data-testid="contact-drawer-name">
            {c?.name ?? ticket.contact?.name}
          </Text>
          <Text textStyle="sm" color="fg.muted">
            {formatPhone(c?.number ?? ticket.contact?.number)}
          </Text>
          {c?.email && (
            <Text textStyle="sm" color="fg.muted">
              {c.email}
            </Text>
          )}
          <HStack gap="2" wrap="wrap" justify="center">
            <Button size="xs" variant="outline" onClick={() => setEditing(true)} disabled={!c} data-testid="contact-drawer-edit">
              <MdEdit />
              {t('contactDrawer.edit')}
            </Button>
            {schedules && (
              <Button
                size="xs"
                variant="outline"
                onClick={() => navigate(`/schedules?contactId=${ticket.contactId}`)}
                data-testid="contact-drawer-schedule"
              >
                <MdEvent />
                {t('contactDrawer.schedule')}
              </Button>
            )}
          </HStack>
        </Stack>
        <Separator />
        <HStack>
          <Heading size="xs" flex="1">
            {t('contactDrawer.tags')}
          </Heading>
          <TicketTagsPicker ticket={ticket} />
        </HStack>
        <HStack gap="1" wrap="wrap" data-testid="contact-drawer-tags">
          {ticket.tags.length === 0 ? (
            <Text textStyle="sm" color="fg.muted">
              {t('contactDrawer.noTags')}
            </Text>
          ) : (
            ticket.tags.map((tag) => (
              <Badge key={tag.id} variant="solid" style={colorPillStyle(tag.color)} data-testid="contact-drawer-tag">
                {tag.name}
              </Badge>
            ))
          )}
        </HStack>
        <Separator />
        <Heading size="xs">{t('contactDrawer.notes')}</Heading>
        <TicketNotes ticketId={ticket.id} contactId={ticket.contactId} />
        <Separator />
        <Heading size="xs">{t('contactDrawer.extraInfo')}</Heading>
        {(c?.extraInfo ?? []).length === 0 ? (
          <Text textStyle="sm" color="fg.muted">
            {t('contactDrawer.noExtraInfo')}
          </Text>
        ) : (
          (c?.extraInfo ?? []).map((row, i) => (
            <Box key={`${row.name}-${i}`} data-testid="contact-drawer-extra">
              <Text textStyle="xs" color="fg.muted">
                {row.name}
              </Text>
              <Text textStyle="sm">{row.value}</Text>
            </Box>
          ))
        )}
      </Stack>
      {editing && c && <ContactDialog contact={c} onClose={() => setEditing(false)} />}
    </Box>
  );
}

/** The ticket's tags, picked from the company's (POST /tags/sync); every open list shows them live. */
function TicketTagsPicker({ ticket }: { ticket: TicketDto }) {
  const { t } = useTranslation();
  const tags = useListTagsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [sync] = useSyncTicketTagsMutation();
  // the picks made while a sync is on its way: the next pick builds on them, not on the older server list
  const [picked, setPicked] = useState<number[] | null>(null);
  const pending = useRef(0);
  return (
    <PickFilter
      label={t('contactDrawer.pickTags')}
      icon={<MdLocalOffer />}
      options={tags.data ?? []}
      selected={picked ?? ticket.tags.map((tag) => tag.id)}
      onChange={(ids) => {
        setPicked(ids);
        pending.current++;
        void sync({ ticketId: ticket.id, tagIds: ids })
          .unwrap()
          .catch((err: unknown) => notify.error(err))
          .finally(() => {
            if (--pending.current === 0) setPicked(null);
          });
      }}
      testId="ticket-tags"
    />
  );
}
