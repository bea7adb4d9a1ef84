import { Button } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { MdDownload } from 'react-icons/md';
import { notify } from '../../app/notify';
import { mediaApi } from '../../app/media.api';
import { storedFileName } from './file-list-rules';

/**
 * An option's saved file (`/media/...`): a button with its name that downloads it. The file is read with the
 * session's token, as the chat reads a message's media (app/media.api `mediaFile`, kept as an object URL), and
 * handed to the browser as a download.
 */
export function FileOptionDownload({ url, label, testId = 'file-option-download' }: { url: string; label?: string; testId?: string }) {
  const { t } = useTranslation();
  const [load, file] = mediaApi.endpoints.mediaFile.useLazyQuery({ refetchOnReconnect: false, refetchOnFocus: false });
  const name = storedFileName(url);

  async function download() {
    try {
      const href = await load(url, true).unwrap();
      const a = document.createElement('a');
      a.href = href;
      a.download = name;
      a.rel = 'noreferrer';
      document.body.appendChild(a);
      a.click();
      a.remove();
    } catch (err) {
      notify.error(err);
    }
  }

  return (
    <Button
      size="xs"
      variant="outline"
      colorPalette="teal"
      maxW="full"
      loading={file.isFetching}
      onClick={() => void download()}
      title={t('files.download', { name })}
      data-testid={testId}
    >
      <MdDownload />
      <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{label ?? name}</span>
    </Button>
  );
}
