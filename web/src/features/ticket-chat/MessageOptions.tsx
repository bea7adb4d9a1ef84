import { Button, Dialog, IconButton, Menu, Portal, Textarea } from '@chakra-ui/react';
import type { MessageDto } from '@wa/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdExpandMore } from 'react-icons/md';
import { notify } from '../../app/notify';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useDeleteMessageMutation, useEditMessageMutation } from './chat.api';
import { isSendable } from './message-rules';

/** What the options menu offers for a message: reply to any; edit and delete only one's own, not deleted. */
/** A chat that is only looked at (a preview, a closed ticket: no `onReply`) offers nothing. */
export function messageActions(m: MessageDto, canReply: boolean): Array<'reply' | 'edit' | 'delete'> {
  if (m.isDeleted || !canReply) return [];
  const out: Array<'reply' | 'edit' | 'delete'> = ['reply'];
  if (m.fromMe && m.ack >= 1) {
    if (m.mediaType === 'chat') out.push('edit');
    out.push('delete');
  }
  return out;
}

/** spec 01 §2: the message options menu (reply, edit, delete), with the edit dialog and the delete confirmation. */
export function MessageOptions({ message, onReply }: { message: MessageDto; onReply?: (m: MessageDto) => void }) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);
  const [text, setText] = useState(message.body);
  const [edit, { isLoading: editing }] = useEditMessageMutation();
  const [remove, { isLoading: deleting }] = useDeleteMessageMutation();
  const actions = messageActions(message, Boolean(onReply));
  if (actions.length === 0) return null;

  async function saveEdit() {
    if (!isSendable(text)) return;
    try {
      await edit({ id: message.id, ticketId: message.ticketId, body: text.trim() }).unwrap();
      setDialog(null);
    } catch (err) {
      notify.error(err);
    }
  }

  async function confirmDelete() {
    try {
      await remove({ id: message.id, ticketId: message.ticketId }).unwrap();
      setDialog(null);
    } catch (err) {
      notify.error(err);
    }
  }

  return (
    <>
      <Menu.Root
        lazyMount
        unmountOnExit
        onSelect={(d) => {
          if (d.value === 'reply') onReply?.(message);
          else {
            setText(message.body);
            setDialog(d.value as 'edit' | 'delete');
          }
        }}
      >
        <Menu.Trigger asChild>
          <IconButton className="options" size="2xs" variant="ghost" aria-label={t('chat.messageOptions')} data-testid="message-options">
            <MdExpandMore />
          </IconButton>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content>
              {actions.map((a) => (
                <Menu.Item key={a} value={a} color={a === 'delete' ? 'fg.error' : undefined} data-testid={`message-option-${a}`}>
                  {t(`chat.${a}`)}
                </Menu.Item>
              ))}
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
      {dialog === 'edit' && (
        <Dialog.Root open onOpenChange={(e) => !e.open && setDialog(null)} size="sm">
          <Portal>
            <Dialog.Backdrop />
            <Dialog.Positioner>
              <Dialog.Content data-testid="edit-message-dialog">
                <Dialog.Header>
                  <Dialog.Title>{t('chat.editTitle')}</Dialog.Title>
                </Dialog.Header>
                <Dialog.Body>
                  <Textarea
                    value={text}
                    onChange={(e) => setText(e.target.value)}
                    autoresize
                    maxH="40"
                    autoFocus
                    aria-label={t('chat.editTitle')}
                    data-testid="edit-message-text"
                  />
                </Dialog.Body>
                <Dialog.Footer>
                  <Button variant="outline" onClick={() => setDialog(null)}>
                    {t('common.cancel')}
                  </Button>
                  <Button
                    colorPalette="teal"
                    loading={editing}
                    disabled={!isSendable(text) || text.trim() === message.body}
                    onClick={() => void saveEdit()}
                    data-testid="edit-message-save"
                  >
                    {t('common.save')}
                  </Button>
                </Dialog.Footer>
              </Dialog.Content>
            </Dialog.Positioner>
          </Portal>
        </Dialog.Root>
      )}
      <ConfirmDialog
        open={dialog === 'delete'}
        title={t('chat.deleteTitle')}
        message={t('chat.deleteMessage')}
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDialog(null)}
      />
    </>
  );
}
