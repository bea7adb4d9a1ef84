import { Box, HStack, Icon, IconButton, Link, Menu, Portal, Text } from '@chakra-ui/react';
import { QUICK_REACTIONS, type MessageContactCard, type MessageDto, type MessageLocation, type MessageReaction } from '@wa/contracts';
import { useTranslation } from 'react-i18next';
import { MdAddReaction, MdContactPhone, MdOpenInNew, MdPlace } from 'react-icons/md';
import { notify } from '../../app/notify';
import { useReactToMessageMutation } from './message-types.api';

/** Where a place opens: Google Maps by its coordinates (a link, no map tiles in the chat). */
export function mapLink(l: Pick<MessageLocation, 'latitude' | 'longitude'>): string {
  return `https://maps.google.com/?q=${l.latitude},${l.longitude}`;
}

/** A place shared in the chat: its name (or "Localização"), its address, and a link that opens it on a map. */
export function LocationCard({ location }: { location: MessageLocation }) {
  const { t } = useTranslation();
  return (
    <Box data-testid="message-location" mb="1" minW="48">
      <HStack gap="1.5" alignItems="flex-start">
        <Icon color="teal.fg" boxSize="5" mt="0.5" aria-hidden>
          <MdPlace />
        </Icon>
        <Box>
          <Text textStyle="sm" fontWeight="medium">
            {location.name || t('chat.location')}
          </Text>
          {location.address && (
            <Text textStyle="xs" color="fg.muted">
              {location.address}
            </Text>
          )}
          <Link
            href={mapLink(location)}
            target="_blank"
            rel="noreferrer"
            textStyle="xs"
            color="teal.fg"
            data-testid="message-location-link"
          >
            {t('chat.openMap')}
            <MdOpenInNew aria-hidden />
          </Link>
        </Box>
      </HStack>
    </Box>
  );
}

/** A number as the card shows it: `+` and its digits. */
const shownNumber = (digits: string) => (/^\d+$/.test(digits) ? `+${digits}` : digits);

/** Contact cards shared in the chat: each one's name and phone numbers. */
export function ContactCards({ contacts }: { contacts: MessageContactCard[] }) {
  const { t } = useTranslation();
  return (
    <Box mb="1">
      {contacts.map((c, i) => (
        <HStack key={i} gap="1.5" alignItems="flex-start" py="0.5" data-testid="message-contact">
          <Icon color="teal.fg" boxSize="5" mt="0.5" aria-hidden>
            <MdContactPhone />
          </Icon>
          <Box>
            <Text textStyle="sm" fontWeight="medium">
              {c.name || t('chat.contactCard')}
            </Text>
            {c.numbers.map((n) => (
              <Text key={n} textStyle="xs" color="fg.muted" data-testid="message-contact-number">
                {shownNumber(n)}
              </Text>
            ))}
          </Box>
        </HStack>
      ))}
    </Box>
  );
}

/** The reactions on a message, as a small badge: each emoji once, with how many reacted with it when more than one. */
export function ReactionBadge({ reactions }: { reactions: MessageReaction[] }) {
  const { t } = useTranslation();
  if (reactions.length === 0) return null;
  const counts = new Map<string, number>();
  for (const r of reactions) counts.set(r.emoji, (counts.get(r.emoji) ?? 0) + 1);
  const list = [...counts].map(([emoji, n]) => (n > 1 ? `${emoji} ${n}` : emoji)).join(' ');
  return (
    <HStack
      gap="0.5"
      display="inline-flex"
      bg="bg"
      borderRadius="full"
      shadow="xs"
      px="1.5"
      py="0.5"
      mt="-1"
      textStyle="xs"
      role="img"
      aria-label={t('chat.reactions', { list })}
      data-testid="message-reactions"
    >
      {[...counts].map(([emoji, n]) => (
        <span key={emoji}>
          {emoji}
          {n > 1 && (
            <Text as="span" textStyle="2xs" color="fg.muted" ms="0.5">
              {n}
            </Text>
          )}
        </span>
      ))}
    </HStack>
  );
}

/**
 * The reaction picker on a message's options: a few emoji (QUICK_REACTIONS); picking the one we already reacted
 * with takes it away. Only where the agent may write (a chat that is only looked at offers nothing).
 */
export function ReactionPicker({ message, enabled }: { message: MessageDto; enabled: boolean }) {
  const { t } = useTranslation();
  const [react] = useReactToMessageMutation();
  if (!enabled || message.isDeleted) return null;
  const mine = message.reactions?.find((r) => r.fromMe)?.emoji ?? '';
  async function pick(emoji: string) {
    try {
      await react({ id: message.id, ticketId: message.ticketId, emoji: emoji === mine ? '' : emoji }).unwrap();
    } catch (err) {
      notify.error(err);
    }
  }
  return (
    <Menu.Root lazyMount unmountOnExit>
      <Menu.Trigger asChild>
        <IconButton className="options" size="2xs" variant="ghost" aria-label={t('chat.react')} data-testid="message-react">
          <MdAddReaction />
        </IconButton>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content display="flex" flexDirection="row" gap="0.5" p="1">
            {QUICK_REACTIONS.map((emoji) => (
              <Menu.Item
                key={emoji}
                value={emoji}
                fontSize="lg"
                px="1.5"
                bg={emoji === mine ? 'teal.subtle' : undefined}
                aria-label={emoji === mine ? t('chat.removeReaction', { emoji }) : t('chat.reactWith', { emoji })}
                onClick={() => void pick(emoji)}
                data-testid={`react-${emoji}`}
              >
                {emoji}
              </Menu.Item>
            ))}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
