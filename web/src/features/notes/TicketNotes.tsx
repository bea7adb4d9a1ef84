import { Box, Button, IconButton, Stack, Text, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdDelete } from 'react-icons/md';
import { notify } from '../../app/notify';
import { selectIsAdmin, selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { useAddNoteMutation, useDeleteNoteMutation, useNotesQuery } from './notes.api';

/** spec 01 §5: a note has at least 2 characters. */
export const NOTE_MIN = 2;

/** The internal notes of a ticket and its contact (spec 01 §2 contact drawer): add, list, delete. */
export function TicketNotes({ ticketId, contactId }: { ticketId: number; contactId: number }) {
  const { t } = useTranslation();
  const me = useAppSelector(selectUser);
  const isAdmin = useAppSelector(selectIsAdmin);
  const [note, setNote] = useState('');
  const [touched, setTouched] = useState(false);
  const notes = useNotesQuery({ ticketId, contactId });
  const [add, { isLoading: adding }] = useAddNoteMutation();
  const [remove] = useDeleteNoteMutation();
  const tooShort = note.trim().length < NOTE_MIN;

  async function save() {
    setTouched(true);
    if (tooShort) return;
    try {
      await add({ ticketId, contactId, note: note.trim() }).unwrap();
      setNote('');
      setTouched(false);
      notify.success(t('notes.added'));
    } catch (err) {
      notify.error(err);
    }
  }

  async function del(id: number) {
    try {
      await remove({ id, ticketId, contactId }).unwrap();
      notify.success(t('notes.deleted'));
    } catch (err) {
      notify.error(err);
    }
  }

  return (
    <Stack gap="2" data-testid="ticket-notes">
      <Textarea
        value={note}
        onChange={(e) => setNote(e.target.value)}
        placeholder={t('notes.placeholder')}
        aria-label={t('contactDrawer.notes')}
        rows={3}
        data-testid="note-text"
      />
      {touched && tooShort && (
        <Text textStyle="xs" color="fg.error">
          {t('notes.tooShort')}
        </Text>
      )}
      <Button size="sm" colorPalette="teal" alignSelf="flex-end" loading={adding} onClick={() => void save()} data-testid="note-save">
        {t('notes.save')}
      </Button>
      {(notes.data ?? []).map((n) => (
        <Box key={n.id} borderWidth="1px" borderRadius="md" px="3" py="2" data-testid="note">
          <Text textStyle="sm" whiteSpace="pre-wrap" wordBreak="break-word">
            {n.note}
          </Text>
          <Stack direction="row" align="center" mt="1">
            <Text textStyle="2xs" color="fg.muted" flex="1">
              {n.user.name} · {new Date(n.createdAt).toLocaleString()}
            </Text>
            {(isAdmin || n.user.id === me?.id) && (
              <IconButton
                size="2xs"
                variant="ghost"
                aria-label={t('common.delete')}
                onClick={() => void del(n.id)}
                data-testid="note-delete"
              >
                <MdDelete />
              </IconButton>
            )}
          </Stack>
        </Box>
      ))}
    </Stack>
  );
}
