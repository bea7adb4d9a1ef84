import { Flex, IconButton, Switch, Textarea } from '@chakra-ui/react';
import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MdSend } from 'react-icons/md';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { notify } from '../../app/notify';
import { useSendMessageMutation } from './chat.api';
import { isSendable, outgoingBody } from './message-rules';

/** spec 01 §5 and §9: the input grows to at most 5 rows. */
export const INPUT_MAX_ROWS = 5;

/** The reply box: Enter sends (Shift+Enter is a new line), blank text is not sent, the sign option is on by default. */
export function MessageInput({ ticketId, disabled }: { ticketId: number; disabled: boolean }) {
  const { t } = useTranslation();
  const user = useAppSelector(selectUser);
  const [text, setText] = useState('');
  const [sign, setSign] = useState(true);
  const [send, { isLoading }] = useSendMessageMutation();

  async function submit() {
    if (disabled || isLoading || !isSendable(text)) return;
    const body = outgoingBody(text, sign, user?.name);
    setText('');
    try {
      await send({ ticketId, body }).unwrap();
    } catch (err) {
      setText(text);
      notify.error(err);
    }
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  }

  return (
    <Flex align="flex-end" gap="2" px="3" py="2" borderTopWidth="1px" bg="bg" data-testid="message-input">
      <Switch.Root size="sm" checked={sign} onCheckedChange={(e) => setSign(e.checked)} disabled={disabled} mb="2" data-testid="sign-switch">
        <Switch.HiddenInput />
        <Switch.Control>
          <Switch.Thumb />
        </Switch.Control>
        <Switch.Label textStyle="xs">{t('chat.sign')}</Switch.Label>
      </Switch.Root>
      <Textarea
        flex="1"
        rows={1}
        autoresize
        // rows of text plus the field's padding (py 2 = 1rem) and border
        maxH={`calc(${INPUT_MAX_ROWS}lh + 1rem + 2px)`}
        resize="none"
        placeholder={disabled ? t('chat.placeholderClosed') : t('chat.placeholder')}
        value={text}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        data-testid="message-textarea"
      />
      <IconButton colorPalette="teal" aria-label={t('chat.send')} onClick={() => void submit()} disabled={disabled || !isSendable(text)} loading={isLoading} data-testid="message-send">
        <MdSend />
      </IconButton>
    </Flex>
  );
}
