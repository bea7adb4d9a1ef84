import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { MdCampaign } from 'react-icons/md';
import { Deferred } from '../../app/Deferred';
import { CountIconButton } from '../../components/CountIconButton';
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
    <CountIconButton
      label={t('announcements.popover.title')}
      icon={<MdCampaign />}
      count={count}
      badge={label}
      testId="announcements-popover-button"
      badgeTestId="announcements-count"
      onClick={onClick}
    />
  );

  return (
    <Deferred placeholder={button}>
      <AnnouncementsPopover trigger={button()} />
    </Deferred>
  );
}
