import { Button, HStack, Icon, Spinner, Text, VisuallyHidden } from '@chakra-ui/react';
import type { MessageDto } from '@wa/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdDownload, MdInsertDriveFile, MdMic, MdPlayCircle } from 'react-icons/md';
import { useMediaFileQuery } from '../../app/media.api';

/** Message types that carry a file. */
export const FILE_TYPES = new Set<MessageDto['mediaType']>(['image', 'audio', 'video', 'application']);

/** Picture types shown in place (and opened in a tab); anything else is only offered for download. */
const SHOWN_IMAGES = /^image\/(jpeg|png|webp|gif)$/;

/** The file name of a media URL (its last segment). */
export function mediaFileName(mediaUrl: string): string {
  return decodeURIComponent(mediaUrl.split('/').pop() ?? 'arquivo');
}

/** The file's bytes as an object URL, fetched with the session's token (not again on reconnects). */
function useFile(url: string, load: boolean) {
  return useMediaFileQuery(url, { skip: !load, refetchOnReconnect: false, refetchOnFocus: false });
}

/**
 * A message's file in the chat (MediaFile); a voice note (an audio recorded as one: `voice`) as WhatsApp shows it,
 * its player beside a microphone.
 */
export function MediaView({ message }: { message: MessageDto }) {
  const { t } = useTranslation();
  if (message.mediaType !== 'audio' || !message.voice) return <MediaFile message={message} />;
  return (
    <HStack gap="1.5" className="voice-note" title={t('chat.voiceNote')} data-testid="media-voice">
      <Icon color="teal.fg" boxSize="5" aria-hidden>
        <MdMic />
      </Icon>
      <VisuallyHidden>{t('chat.voiceNote')}</VisuallyHidden>
      <MediaFile message={message} />
    </HStack>
  );
}

/**
 * A message's file in the chat: a picture shown and audio ready to play (small, fetched at once); a video
 * or a document fetched only when asked for (they can be large). Fetched with the session's token. A file
 * WhatsApp would not give shows as unavailable.
 */
function MediaFile({ message }: { message: MessageDto }) {
  const { t } = useTranslation();
  const url = message.mediaUrl;
  const eager = message.mediaType === 'image' || message.mediaType === 'audio';
  const [asked, setAsked] = useState(false);
  const file = useFile(url ?? '', Boolean(url) && (eager || asked));
  if (!url || file.isError) {
    return (
      <Text textStyle="xs" color="fg.muted" fontStyle="italic" data-testid="media-unavailable">
        {t('chat.mediaUnavailable')}
      </Text>
    );
  }
  const name = mediaFileName(url);
  if (!eager && !asked) {
    return (
      <Button
        size="xs"
        variant="outline"
        onClick={() => setAsked(true)}
        data-testid={message.mediaType === 'video' ? 'media-video-load' : 'media-document'}
      >
        {message.mediaType === 'video' ? <MdPlayCircle /> : <MdInsertDriveFile />}
        {name}
      </Button>
    );
  }
  if (!file.data) return <Spinner size="sm" color="teal.solid" aria-label={t('chat.mediaLoading')} />;
  switch (message.mediaType) {
    case 'image':
      return SHOWN_IMAGES.test(mimeOf(name)) ? (
        <a href={file.data} target="_blank" rel="noreferrer">
          <img src={file.data} alt={name} className="media-image" data-testid="media-image" />
        </a>
      ) : (
        <img src={file.data} alt={name} className="media-image" data-testid="media-image" />
      );
    case 'audio':
      return <audio src={file.data} controls preload="metadata" className="media-audio" data-testid="media-audio" />;
    case 'video':
      return <video src={file.data} controls autoPlay className="media-video" data-testid="media-video" />;
    default:
      return (
        <Button asChild size="xs" variant="outline" colorPalette="teal" data-testid="media-document-ready">
          <a href={file.data} download={name}>
            <MdInsertDriveFile />
            {name}
            <MdDownload aria-label={t('chat.download')} />
          </a>
        </Button>
      );
  }
}

/** A picture's type from its name's extension (the server serves it by the same rule). */
function mimeOf(name: string): string {
  const ext = name.split('.').pop()?.toLowerCase() ?? '';
  return ext === 'jpg' || ext === 'jpeg'
    ? 'image/jpeg'
    : ext === 'png'
      ? 'image/png'
      : ext === 'webp'
        ? 'image/webp'
        : ext === 'gif'
          ? 'image/gif'
          : '';
}
