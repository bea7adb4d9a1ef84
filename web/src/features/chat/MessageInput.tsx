import { Box, CloseButton, Flex, HStack, IconButton, Switch, Tag, Text, Textarea } from '@chakra-ui/react';
import type { MessageDto } from '@wa/contracts';
import { useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAttachFile, MdSend } from 'react-icons/md';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { notify } from '../../app/notify';
import { useSendMessageMutation } from './chat.api';
import { isSendable, outgoingBody } from './message-rules';
import { quotedText } from './MessagesList';

/** spec 01 §5 and §9: the input grows to at most 5 rows. */
export const INPUT_MAX_ROWS = 5;

/** Files sent at once (the API takes up to 10). */
export const MAX_FILES = 10;

/**
 * The reply box: Enter sends (Shift+Enter is a new line), blank text is not sent, the sign option is on
 * by default. Files chosen with the clip go with the text as their caption; a message being answered
 * shows above the box until sent or cancelled.
 */
export function MessageInput({ ticketId, disabled, replyTo, contactName = '', onReplyDone }: { ticketId: number; disabled: boolean; replyTo?: MessageDto | null; contactName?: string; onReplyDone?: () => void }) {
  const { t } = useTranslation();
  const user = useAppSelector(selectUser);
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [sign, setSign] = useState(true);
  const [send, { isLoading }] = useSendMessageMutation();
  const picker = useRef<HTMLInputElement>(null);
  const ready = isSendable(text) || files.length > 0;

  async function submit() {
    if (disabled || isLoading || !ready) return;
    const body = isSendable(text) ? outgoingBody(text, sign, user?.name) : '';
    const sending = files;
    setText('');
    setFiles([]);
    try {
      await send({ ticketId, body, files: sending, quotedId: replyTo?.id ?? null }).unwrap();
      onReplyDone?.();
    } catch (err) {
      setText(text);
      setFiles(sending);
      notify.error(err);
    }
  }

  function pick(list: FileList | null) {
    if (!list) return;
    setFiles((current) => [...current, ...Array.from(list)].slice(0, MAX_FILES));
    if (picker.current) picker.current.value = '';
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  }

  return (
    <Box borderTopWidth="1px" bg="bg">
      {replyTo && (
        <HStack px="3" pt="2" gap="2" data-testid="reply-preview">
          <Box flex="1" minW="0" borderLeftWidth="4px" borderLeftColor="teal.solid" bg="bg.muted" borderRadius="sm" px="2" py="1">
            <Text textStyle="2xs" color="teal.fg" fontWeight="semibold">
              {t('chat.replyingTo')} {replyTo.fromMe ? t('chat.you') : (replyTo.contact?.name ?? contactName)}
            </Text>
            <Text textStyle="xs" lineClamp={2}>
              {quotedText(replyTo)}
            </Text>
          </Box>
          <CloseButton size="xs" aria-label={t('chat.cancelReply')} onClick={onReplyDone} data-testid="reply-cancel" />
        </HStack>
      )}
      {files.length > 0 && (
        <HStack px="3" pt="2" gap="1" wrap="wrap" data-testid="chosen-files">
          {files.map((f, i) => (
            <Tag.Root key={`${f.name}-${i}`} size="sm" variant="surface">
              <Tag.Label>{f.name}</Tag.Label>
              <Tag.EndElement>
                <Tag.CloseTrigger aria-label={t('chat.removeFile')} onClick={() => setFiles((c) => c.filter((_, j) => j !== i))} />
              </Tag.EndElement>
            </Tag.Root>
          ))}
        </HStack>
      )}
    <Flex align="flex-end" gap="2" px="3" py="2" data-testid="message-input">
      <Switch.Root size="sm" checked={sign} onCheckedChange={(e) => setSign(e.checked)} disabled={disabled} mb="2" data-testid="sign-switch">
        <Switch.HiddenInput />
        <Switch.Control>
          <Switch.Thumb />
        </Switch.Control>
        <Switch.Label textStyle="xs">{t('chat.sign')}</Switch.Label>
      </Switch.Root>
      <input ref={picker} type="file" multiple hidden onChange={(e) => pick(e.target.files)} data-testid="file-input" />
      <IconButton variant="ghost" aria-label={t('chat.attach')} title={t('chat.attach')} onClick={() => picker.current?.click()} disabled={disabled} data-testid="attach">
        <MdAttachFile />
      </IconButton>
      <Textarea
        flex="1"
        rows={1}
        autoresize
        // rows of text plus the field's padding (py 2 = 1rem) and border
        maxH={`calc(${INPUT_MAX_ROWS}lh + 1rem + 2px)`}
        resize="none"
        placeholder={disabled ? t('chat.placeholderClosed') : files.length > 0 ? t('chat.caption') : t('chat.placeholder')}
        value={text}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        data-testid="message-textarea"
      />
      <IconButton colorPalette="teal" aria-label={t('chat.send')} onClick={() => void submit()} disabled={disabled || !ready} loading={isLoading} data-testid="message-send">
        <MdSend />
      </IconButton>
    </Flex>
    </Box>
  );
}
