import { Box, HStack, Popover, Portal, Spinner, Stack, Text } from '@chakra-ui/react';
import type { AnnouncementDto } from '@wa/contracts';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useScrollPaging } from '../../app/list-page';
import { activeAnnouncements, POPOVER_SEARCH, priorityColor, priorityName } from './announcement-rules';
import { AnnouncementImage } from './AnnouncementImage';
import { useListAnnouncementsInfiniteQuery } from './announcements.api';

/**
 * The active announcements, newest first: each with its priority's colour, title, text and image (if any);
 * the next page loads as the list is scrolled near its end (or at once while it does not fill the popover).
 */
export default function AnnouncementsPopover({ trigger }: { trigger: ReactElement }) {
  const { t } = useTranslation();
  return (
    <Popover.Root defaultOpen lazyMount unmountOnExit positioning={{ placement: 'bottom-end' }}>
      <Popover.Trigger asChild>{trigger}</Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          <Popover.Content width="sm" maxW="calc(100vw - 16px)" data-testid="announcements-popover">
            <Popover.Header fontWeight="semibold" textStyle="sm" borderBottomWidth="1px" py="2" px="3">
              {t('announcements.popover.title')}
            </Popover.Header>
            <AnnouncementsList />
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}

function AnnouncementsList() {
  const { t } = useTranslation();
  const query = useListAnnouncementsInfiniteQuery(POPOVER_SEARCH);
  const { isFetchingNextPage } = query;
  const announcements = activeAnnouncements(query.data?.pages);
  const paging = useScrollPaging(query, announcements.length);

  return (
    <Popover.Body
      ref={paging.ref}
      p="0"
      maxH="min(70vh, 32rem)"
      overflowY="auto"
      onScroll={paging.onScroll}
      data-testid="announcements-popover-list"
    >
      {announcements.length === 0 && !query.isLoading && !isFetchingNextPage ? (
        <Text
          p="4"
          textStyle="sm"
          color={query.isError ? 'fg.error' : 'fg.muted'}
          textAlign="center"
          data-testid="announcements-popover-empty"
        >
          {query.isError ? t('announcements.loadFailed') : t('announcements.popover.empty')}
        </Text>
      ) : (
        <Stack as="ul" gap="0" listStyleType="none" m="0" p="0">
          {announcements.map((a) => (
            <AnnouncementItem key={a.id} announcement={a} />
          ))}
        </Stack>
      )}
      {(query.isLoading || isFetchingNextPage) && (
        <Box p="3" textAlign="center">
          <Spinner size="sm" color="teal.solid" />
        </Box>
      )}
    </Popover.Body>
  );
}

function AnnouncementItem({ announcement: a }: { announcement: AnnouncementDto }) {
  const { t } = useTranslation();
  const color = priorityColor(a.priority);
  return (
    <Box
      as="li"
      px="3"
      py="2.5"
      borderBottomWidth="1px"
      _last={{ borderBottomWidth: 0 }}
      borderInlineStartWidth="4px"
      borderInlineStartColor={`${color}.solid`}
      data-testid="announcements-popover-item"
      data-id={a.id}
      data-priority={a.priority}
      data-color={color}
    >
      <HStack gap="2" align="start">
        <Text flex="1" minW="0" textStyle="sm" fontWeight="semibold" data-testid="announcements-popover-title">
          {a.title}
        </Text>
        <Text
          as="span"
          flexShrink={0}
          textStyle="2xs"
          fontWeight="bold"
          textTransform="uppercase"
          color={`${color}.fg`}
          data-testid="announcements-popover-priority"
        >
          {t(`announcements.priorities.${priorityName(a.priority)}`)}
        </Text>
      </HStack>
      <Text mt="1" textStyle="sm" color="fg.muted" whiteSpace="pre-wrap" wordBreak="break-word" data-testid="announcements-popover-text">
        {a.text}
      </Text>
      {a.mediaUrl && a.mediaPath && (
        <Box mt="2">
          <AnnouncementImage announcement={a} />
        </Box>
      )}
    </Box>
  );
}
