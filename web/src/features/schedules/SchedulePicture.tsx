import { Box, Button, HStack, IconButton, Spinner, Text } from '@chakra-ui/react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAttachFile, MdDelete } from 'react-icons/md';
import { notify } from '../../app/notify';
import { useMediaFileQuery } from '../../app/media.api';
import { isAcceptedPicture, SCHEDULE_MEDIA_ACCEPT } from './schedule-rules';

/** The saved picture, fetched with the session's token (the `/media/...` URLs need it). */
function SavedPicture({ url, name }: { url: string; name: string }) {
  const { t } = useTranslation();
  const file = useMediaFileQuery(url, { refetchOnReconnect: false, refetchOnFocus: false });
  if (file.isError) return null;
  if (!file.data) return <Spinner size="sm" color="teal.solid" aria-label={t('common.loading')} />;
  return (
    <Box asChild maxH="32" maxW="48" borderRadius="md" objectFit="cover">
      <img src={file.data} alt={name} data-testid="schedule-media-image" />
    </Box>
  );
}

/**
 * The optional picture of a schedule (png, jpg or jpeg): the saved one with its remove button, or the file
 * picked to be uploaded after the save.
 */
export function SchedulePicture(props: {
  saved: { url: string; name: string } | null;
  picked: File | null;
  onPick(file: File | null): void;
  onRemoveSaved(): void;
  removing?: boolean;
  readOnly?: boolean;
  error?: string | null;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const name = props.picked?.name ?? props.saved?.name ?? null;

  function pick(file: File | undefined) {
    if (input.current) input.current.value = '';
    if (!file) return;
    if (!isAcceptedPicture(file)) {
      notify.errorText(t('schedules.dialog.onlyImages'));
      return;
    }
    props.onPick(file);
  }

  return (
    <Box>
      <Text textStyle="sm" fontWeight="medium" mb="1">
        {t('schedules.dialog.picture')}
      </Text>
      {!props.picked && props.saved && <SavedPicture url={props.saved.url} name={props.saved.name} />}
      <HStack mt="1">
        <input
          ref={input}
          type="file"
          accept={SCHEDULE_MEDIA_ACCEPT}
          hidden
          onChange={(e) => pick(e.target.files?.[0])}
          data-testid="schedule-file"
        />
        {!props.readOnly && (
          <Button size="sm" variant="outline" onClick={() => input.current?.click()} data-testid="schedule-attach">
            <MdAttachFile />
            {t('schedules.dialog.attach')}
          </Button>
        )}
        <Text textStyle="sm" flex="1" truncate color={name ? undefined : 'fg.muted'} data-testid="schedule-media-name">
          {name ?? t('schedules.dialog.noPicture')}
        </Text>
        {name && !props.readOnly && (
          <IconButton
            size="xs"
            variant="ghost"
            colorPalette="red"
            loading={props.removing}
            aria-label={t('schedules.dialog.removePicture')}
            onClick={() => (props.picked ? props.onPick(null) : props.onRemoveSaved())}
            data-testid="schedule-media-remove"
          >
            <MdDelete />
          </IconButton>
        )}
      </HStack>
      {props.error && (
        <Text textStyle="xs" color="fg.error" mt="1">
          {props.error}
        </Text>
      )}
    </Box>
  );
}
