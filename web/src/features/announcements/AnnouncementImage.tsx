import { Image, Skeleton, Text } from '@chakra-ui/react';
import type { AnnouncementDto } from '@wa/contracts';
import { useTranslation } from 'react-i18next';
import { useMediaFileQuery } from '../../app/media.api';
import { announcementImageUrl } from './announcement-rules';

/**
 * An announcement's image (`mediaUrl`), fetched with the session's token as the chat's media are (never a
 * public address), shown from an object URL. Nothing when it has none.
 */
export function AnnouncementImage({ announcement, maxH = '48' }: { announcement: AnnouncementDto; maxH?: string }) {
  const { t } = useTranslation();
  const url = announcementImageUrl(announcement);
  const file = useMediaFileQuery(url ?? '', { skip: !url, refetchOnReconnect: false, refetchOnFocus: false });
  if (!url) return null;
  if (file.isError) {
    return (
      <Text textStyle="xs" color="fg.muted" fontStyle="italic" data-testid="announcement-image-unavailable">
        {t('announcements.imageUnavailable')}
      </Text>
    );
  }
  if (!file.data) return <Skeleton h="24" w="full" borderRadius="md" aria-label={t('common.loading')} />;
  return (
    <Image
      src={file.data}
      alt={announcement.mediaName ?? announcement.title}
      maxH={maxH}
      maxW="full"
      objectFit="contain"
      borderRadius="md"
      data-testid="announcement-image"
    />
  );
}
