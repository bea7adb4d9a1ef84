import { Box, Field, Input, Text } from '@chakra-ui/react';
import type { ContactDto } from '@wa/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../../app/use-debounced';
import { CONTACT_SEARCH_MIN } from '../contacts/contact-rules';
import { useSearchContactsQuery } from '../contacts/contacts.api';

export type PickedContact = Pick<ContactDto, 'id' | 'name' | 'number'>;

/**
 * A contact picked by search (spec 01 §5: from 3 typed characters, after 500 ms, as in the new-ticket
 * modal). Typing again drops the pick. `disabled` keeps the pick as it is (a dialog opened for one contact).
 */
export function ContactPicker({
  value,
  onChange,
  disabled,
  error,
}: {
  value: PickedContact | null;
  onChange(c: PickedContact | null): void;
  disabled?: boolean;
  error?: string | null;
}) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const term = useDebounced(typed.trim(), SEARCH_DEBOUNCE_MS);
  const searching = !value && !disabled && term.length >= CONTACT_SEARCH_MIN;
  const found = useSearchContactsQuery(term, { skip: !searching });
  const matches = searching ? (found.data ?? []) : [];
  const short = !value && typed.trim().length > 0 && typed.trim().length < CONTACT_SEARCH_MIN;

  return (
    <Field.Root required invalid={!!error} disabled={disabled}>
      <Field.Label>{t('schedules.dialog.contact')}</Field.Label>
      <Input
        value={value ? `${value.name}${value.number ? ` (${value.number})` : ''}` : typed}
        placeholder={t('schedules.dialog.contactPlaceholder')}
        onChange={(e) => {
          if (value) onChange(null);
          setTyped(e.target.value);
        }}
        autoComplete="off"
        data-testid="schedule-contact"
      />
      {short && <Field.HelperText>{t('schedules.dialog.typeMore')}</Field.HelperText>}
      {error && <Field.ErrorText>{error}</Field.ErrorText>}
      {searching && !found.isFetching && term === typed.trim() && (
        <Box
          w="full"
          borderWidth="1px"
          borderRadius="md"
          maxH="48"
          overflowY="auto"
          role="listbox"
          aria-label={t('schedules.dialog.contact')}
          data-testid="schedule-contact-options"
        >
          {matches.map((c) => (
            <Box
              key={c.id}
              role="option"
              aria-selected={false}
              tabIndex={0}
              px="3"
              py="2"
              cursor="pointer"
              _hover={{ bg: 'bg.muted' }}
              _focusVisible={{ bg: 'bg.muted', outline: 'none' }}
              onClick={() => onChange(c)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  onChange(c);
                }
              }}
              data-testid="schedule-contact-option"
              data-contact-id={c.id}
            >
              <Text textStyle="sm">{c.name}</Text>
              <Text textStyle="xs" color="fg.muted">
                {c.number}
              </Text>
            </Box>
          ))}
          {matches.length === 0 && (
            <Text px="3" py="2" textStyle="sm" color="fg.muted" data-testid="schedule-contact-none">
              {t('schedules.dialog.noContacts')}
            </Text>
          )}
        </Box>
      )}
    </Field.Root>
  );
}
