import { Button, Spinner, Text } from '@chakra-ui/react';
import type { MessageDto } from '@wa/contracts';
import { useTranslation } from 'react-i18next';
import { MdDownload, MdInsertDriveFile } from 'react-icons/md';
import { useMediaFileQuery } from './chat.api';

/** Message types that carry a file. */
export const FILE_TYPES = new Set<MessageDto['mediaType']>(['image', 'audio', 'video', 'application']);

/** The file name of a media URL (its last segment). */
export function mediaFileName(mediaUrl: string): string {
  return decodeURIComponent(mediaUrl.split('/').pop() ?? 'arquivo');
}

/**
 * A message's file in the chat: a picture shown, audio and video played, a document offered for
 * download; fetched with the session's token. A file WhatsApp would not give shows as unavailable.
 */
export function MediaView({ message }: { message: MessageDto }) {
  const { t } = useTranslation();
  const url = message.mediaUrl;
  const file = useMediaFileQuery(url ?? '', { skip: !url });
  if (!url) {
    return (
      <Text textStyle="xs" color="fg.muted" fontStyle="italic" data-testid="media-unavailable">
        {t('chat.mediaUnavailable')}
      </Text>
    );
  }
  if (file.isError) {
    return (
      <Text textStyle="xs" color="fg.muted" fontStyle="italic" data-testid="media-unavailable">
        {t('chat.mediaUnavailable')}
      </Text>
    );
  }
  if (!file.data) return <Spinner size="sm" color="teal.solid" aria-label={t('chat.mediaLoading')} />;
  const name = mediaFileName(url);
  switch (message.mediaType) {
    case 'image':
      return (
        <a href={file.data} target="_blank" rel="noreferrer">
          <img src={file.data} alt={name} className="media-image" data-testid="media-image" />
        </a>
      );
    case 'audio':
      return <audio src={file.data} controls preload="metadata" className="media-audio" data-testid="media-audio" />;
    case 'video':
      return <video src={file.data} controls preload="metadata" className="media-video" data-testid="media-video" />;
    default:
      return (
        <Button asChild size="xs" variant="outline" data-testid="media-document">
          <a href={file.data} download={name}>
            <MdInsertDriveFile />
            {name}
            <MdDownload aria-label={t('chat.download')} />
          </a>
        </Button>
      );
  }
}
