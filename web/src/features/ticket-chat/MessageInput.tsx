import { Box, CloseButton, Flex, HStack, IconButton, Popover, Portal, Spinner, Switch, Tag, Text, Textarea } from '@chakra-ui/react';
import type { MessageDto, QuickMessageDto } from '@wa/contracts';
import { apiUrl } from '../../app/config';
import { getToken } from '../../app/storage';
import { lazy, Suspense, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAttachFile, MdCheck, MdClose, MdInsertEmoticon, MdMic, MdSend } from 'react-icons/md';
import { keepRecording, startMp3Recording, type Recording } from './audio-recorder';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { notify } from '../../app/notify';
import { useQuickRepliesQuery, useSendMessageMutation } from './chat.api';
import { useSendVoiceNoteMutation } from './message-types.api';
import { useAgentPresence } from './presence';
import { ShareMenu } from './ShareMenu';
import { isSendable, outgoingBody, quickReplyLabel, quickReplyMatches } from './message-rules';
import { quotedText } from './MessagesList';
import { useShortcuts } from '../tickets/shortcuts';

/** spec 01 §5 and §9: the input grows to at most 5 rows. */
export const INPUT_MAX_ROWS = 5;

const EmojiPickerPanel = lazy(() => import('./EmojiPickerPanel'));

/** m:ss of a recording's length. */
export function recordingTime(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Files sent at once (the API takes up to 10). */
export const MAX_FILES = 10;

/**
 * The reply box: Enter sends (Shift+Enter is a new line), blank text is not sent, the sign option is on
 * by default. Files chosen with the clip go with the text as their caption; a message being answered
 * shows above the box until sent or cancelled.
 */
export function MessageInput({
  ticketId,
  disabled,
  replyTo,
  contactName = '',
  onReplyDone,
}: {
  ticketId: number;
  disabled: boolean;
  replyTo?: MessageDto | null;
  contactName?: string;
  onReplyDone?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const user = useAppSelector(selectUser);
  const [text, setText] = useState('');
  const [emojiOpen, setEmojiOpen] = useState(false);
  const [recording, setRecording] = useState<{ rec: Recording; since: number } | null>(null);
  const [, tick] = useState(0);
  const box = useRef<HTMLTextAreaElement>(null);
  // C: to the reply box (when the ticket takes messages)
  useShortcuts({
    composer: () => {
      if (disabled || !box.current) return false;
      box.current.focus();
    },
  });
  const [files, setFiles] = useState<File[]>([]);
  const [sign, setSign] = useState(true);
  const [send, { isLoading }] = useSendMessageMutation();
  const [sendVoiceNote] = useSendVoiceNoteMutation();
  // the customer sees "digitando…" / "gravando…" while the agent types or records
  const presence = useAgentPresence(ticketId, !disabled);
  const picker = useRef<HTMLInputElement>(null);
  const ready = isSendable(text) || files.length > 0;
  const typingShortcut = text.startsWith('/') && text.length > 1;
  const replies = useQuickRepliesQuery(undefined, { skip: !typingShortcut });
  const suggestions = typingShortcut ? quickReplyMatches(text, replies.data ?? []).slice(0, 8) : [];
  const [highlight, setHighlight] = useState(0);

  async function submit() {
    if (disabled || isLoading || !ready) return;
    const body = isSendable(text) ? outgoingBody(text, sign, user?.name) : '';
    const sending = files;
    setText('');
    setFiles([]);
    presence.stopped();
    try {
      await send({ ticketId, body, files: sending, quotedId: replyTo?.id ?? null }).unwrap();
      onReplyDone?.();
    } catch (err) {
      setText(text);
      setFiles(sending);
      notify.error(err);
    }
  }

  async function record() {
    try {
      const rec = await startMp3Recording();
      // the box went away (another ticket) while the microphone was opening: stop at once
      if (!mounted.current) return rec.cancel();
      setRecording({ rec, since: Date.now() });
      presence.recording();
    } catch {
      notify.errorText(t('chat.noMicrophone'));
    }
  }

  /** Stops the recording and sends it as an MP3; one under 10,000 bytes is discarded. */
  async function sendRecording() {
    const current = recording;
    if (!current) return;
    setRecording(null);
    presence.stopped();
    const mp3 = await current.rec.stop();
    if (!keepRecording(mp3)) return;
    const file = new File([mp3], `audio-${new Date().toISOString().replace(/[:.]/g, '-')}.mp3`, { type: 'audio/mpeg' });
    try {
      // sent as a WhatsApp voice note (the server transcodes it to OGG/Opus)
      await sendVoiceNote({ ticketId, file, quotedId: replyTo?.id ?? null }).unwrap();
      onReplyDone?.();
    } catch (err) {
      notify.error(err);
    }
  }

  useEffect(() => {
    if (!recording) return;
    const timer = setInterval(() => tick((n) => n + 1), 500);
    return () => clearInterval(timer);
  }, [recording]);
  useEffect(() => () => recording?.rec.cancel(), [recording]);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  /** A quick reply picked: its text in the box, its attachment among the files (fetched with the session's token). */
  async function applyReply(r: QuickMessageDto) {
    setText(r.message);
    setHighlight(0);
    // only a file of ours, on the API host (never a URL a text field could point elsewhere)
    if (!r.mediaPath || !/^\/media\/\d+\/[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/.test(r.mediaPath)) return;
    try {
      const res = await fetch(`${apiUrl()}${r.mediaPath}`, { headers: { authorization: `Bearer ${getToken() ?? ''}` } });
      if (!res.ok) throw new Error(String(res.status));
      const blob = await res.blob();
      setFiles((current) => [...current, new File([blob], r.mediaName ?? 'arquivo', { type: blob.type })].slice(0, MAX_FILES));
    } catch {
      notify.errorText(t('chat.mediaUnavailable'));
    }
  }

  /** An emoji goes where the cursor is. */
  function insertEmoji(emoji: string) {
    const el = box.current;
    const at = el ? el.selectionStart : text.length;
    const end = el ? el.selectionEnd : text.length;
    setText(text.slice(0, at) + emoji + text.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at + emoji.length, at + emoji.length);
    });
  }

  function pick(list: FileList | null) {
    if (!list) return;
    setFiles((current) => [...current, ...Array.from(list)].slice(0, MAX_FILES));
    if (picker.current) picker.current.value = '';
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (suggestions.length > 0 && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      e.preventDefault();
      setHighlight((h) => (h + (e.key === 'ArrowDown' ? 1 : suggestions.length - 1)) % suggestions.length);
      return;
    }
    if (suggestions.length > 0 && (e.key === 'Enter' || e.key === 'Tab') && !e.shiftKey) {
      // a quick reply picked: its text goes in the box (variables are filled when it is sent)
      e.preventDefault();
      void applyReply(suggestions[Math.min(highlight, suggestions.length - 1)]);
      return;
    }
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
      {suggestions.length > 0 && (
        <Box px="3" pt="2" data-testid="quick-replies">
          <Box borderWidth="1px" borderRadius="md" bg="bg.panel" shadow="sm" maxH="48" overflowY="auto" role="listbox">
            {suggestions.map((r, i) => (
              <Box
                key={r.id}
                role="option"
                aria-selected={i === highlight}
                px="3"
                py="1.5"
                textStyle="sm"
                cursor="pointer"
                bg={i === highlight ? 'bg.muted' : undefined}
                onMouseDown={(e) => {
                  e.preventDefault();
                  void applyReply(r);
                }}
                data-testid="quick-reply-option"
              >
                {quickReplyLabel(r)}
              </Box>
            ))}
          </Box>
        </Box>
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
        <Switch.Root
          size="sm"
          checked={sign}
          onCheckedChange={(e) => setSign(e.checked)}
          disabled={disabled}
          mb="2"
          data-testid="sign-switch"
        >
          <Switch.HiddenInput />
          <Switch.Control>
            <Switch.Thumb />
          </Switch.Control>
          <Switch.Label textStyle="xs">{t('chat.sign')}</Switch.Label>
        </Switch.Root>
        <Popover.Root
          open={emojiOpen}
          onOpenChange={(e) => setEmojiOpen(e.open)}
          lazyMount
          unmountOnExit
          positioning={{ placement: 'top-start' }}
        >
          <Popover.Trigger asChild>
            <IconButton variant="ghost" aria-label={t('chat.emoji')} title={t('chat.emoji')} disabled={disabled} data-testid="emoji-button">
              <MdInsertEmoticon />
            </IconButton>
          </Popover.Trigger>
          <Portal>
            <Popover.Positioner>
              <Popover.Content width="auto" p="0">
                <Suspense fallback={<Spinner m="4" />}>
                  <EmojiPickerPanel language={i18n.language} onPick={insertEmoji} />
                </Suspense>
              </Popover.Content>
            </Popover.Positioner>
          </Portal>
        </Popover.Root>
        <input ref={picker} type="file" multiple hidden onChange={(e) => pick(e.target.files)} data-testid="file-input" />
        <IconButton
          variant="ghost"
          aria-label={t('chat.attach')}
          title={t('chat.attach')}
          onClick={() => picker.current?.click()}
          disabled={disabled}
          data-testid="attach"
        >
          <MdAttachFile />
        </IconButton>
        <ShareMenu ticketId={ticketId} disabled={disabled} />
        <Textarea
          flex="1"
          rows={1}
          autoresize
          // rows of text plus the field's padding (py 2 = 1rem) and border
          maxH={`calc(${INPUT_MAX_ROWS}lh + 1rem + 2px)`}
          resize="none"
          placeholder={disabled ? t('chat.placeholderClosed') : files.length > 0 ? t('chat.caption') : t('chat.placeholder')}
          aria-label={contactName ? t('a11y.composer', { name: contactName }) : t('a11y.composerNoName')}
          ref={box}
          value={text}
          disabled={disabled}
          onChange={(e) => {
            setText(e.target.value);
            setHighlight(0);
            if (e.target.value.trim() === '' || e.target.value.startsWith('/')) presence.stopped();
            else presence.typing();
          }}
          onKeyDown={onKeyDown}
          data-testid="message-textarea"
        />
        {recording ? (
          <HStack gap="1" data-testid="recording">
            <Text textStyle="sm" color="fg.error" minW="10" data-testid="recording-time">
              {recordingTime(Date.now() - recording.since)}
            </Text>
            <IconButton
              variant="ghost"
              aria-label={t('chat.cancelRecording')}
              onClick={() => {
                recording.rec.cancel();
                setRecording(null);
                presence.stopped();
              }}
              data-testid="recording-cancel"
            >
              <MdClose />
            </IconButton>
            <IconButton
              colorPalette="teal"
              aria-label={t('chat.sendRecording')}
              onClick={() => void sendRecording()}
              data-testid="recording-send"
            >
              <MdCheck />
            </IconButton>
          </HStack>
        ) : !ready ? (
          <IconButton
            variant="ghost"
            aria-label={t('chat.record')}
            title={t('chat.record')}
            onClick={() => void record()}
            disabled={disabled}
            loading={isLoading}
            data-testid="record-button"
          >
            <MdMic />
          </IconButton>
        ) : (
          <IconButton
            colorPalette="teal"
            aria-label={t('chat.send')}
            onClick={() => void submit()}
            disabled={disabled || !ready}
            loading={isLoading}
            data-testid="message-send"
          >
            <MdSend />
          </IconButton>
        )}
      </Flex>
    </Box>
  );
}
