import { Box, IconButton } from '@chakra-ui/react';
import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { MdCampaign } from 'react-icons/md';
import { Deferred } from '../../app/Deferred';
import { countLabel } from '../notifications/notification-rules';
import { activeAnnouncementsCount, POPOVER_SEARCH } from './announcement-rules';
import { useListAnnouncementsInfiniteQuery } from './announcements.api';

// the popover loads when first opened
const AnnouncementsPopover = lazy(() => import('./AnnouncementsPopover'));

/**
 * The top bar's announcements (spec 02 "Announcements", for everyone): a button with the count of active
 * announcements, kept live by the socket (`company-announcement`); the list opens in a popover.
 */
export function AnnouncementsButton() {
  const { t } = useTranslation();
  const list = useListAnnouncementsInfiniteQuery(POPOVER_SEARCH);
  const count = activeAnnouncementsCount(list.data?.pages);
  const label = countLabel(count);

  const button = (onClick?: () => void) => (
    <IconButton
      variant="ghost"
      size="sm"
      position="relative"
      aria-label={t('announcements.popover.title')}
      title={t('announcements.popover.title')}
      onClick={onClick}
      data-testid="announcements-popover-button"
      data-count={count}
    >
      <MdCampaign />
      {label && (
        <Box
          as="span"
          position="absolute"
          top="0"
          insetEnd="0"
          minW="4"
          h="4"
          px="1"
          borderRadius="full"
          bg="red.solid"
          color="red.contrast"
          fontSize="2xs"
          fontWeight="bold"
          lineHeight="1rem"
          textAlign="center"
          pointerEvents="none"
          data-testid="announcements-count"
        >
          {label}
        </Box>
      )}
    </IconButton>
  );

  return (
    <Deferred placeholder={button}>
      <AnnouncementsPopover trigger={button()} />
    </Deferred>
  );
}
