import { Box, Button, Field, Heading, HStack, Input, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isMasked, type IntegrationField, type IntegrationGroup } from './settings-rules';

type Save = (key: string, value: string) => Promise<boolean>;

interface FieldProps {
  field: IntegrationField;
  busy: boolean;
  save: Save;
}

/**
 * The Opcoes tab's "Integrações" (IXC, MK-AUTH, ASAAS), one field per key the company has. An address or an
 * id is a text input saved when left changed; a token is never shown: its input starts empty with the masked
 * value (`••••6789`) as placeholder, a value typed in replaces it when the field is left (or on Enter), and
 * Remover clears it.
 */
export function IntegrationSettings({ groups, busy, save }: { groups: IntegrationGroup[]; busy: ReadonlySet<string>; save: Save }) {
  const { t } = useTranslation();
  if (groups.length === 0) return null;
  return (
    <Box mt="8" data-testid="settings-integrations">
      <Heading size="md" mb="1">
        {t('settings.integrations.title')}
      </Heading>
      <Text textStyle="sm" color="fg.muted" mb="4">
        {t('settings.integrations.intro')}
      </Text>
      <Stack gap="5">
        {groups.map((g) => (
          <Box key={g.id} borderWidth="1px" borderRadius="md" p="4" data-testid={`settings-integration-${g.id}`}>
            <Heading size="sm" mb="3">
              {t(`settings.integrations.groups.${g.id}`)}
            </Heading>
            <SimpleGrid columns={{ base: 1, md: g.fields.length > 2 ? 3 : 2 }} gap="4">
              {g.fields.map((f) =>
                f.secret ? (
                  <SecretField key={f.key} field={f} busy={busy.has(f.key)} save={save} />
                ) : (
                  <PlainField key={f.key} field={f} busy={busy.has(f.key)} save={save} />
                ),
              )}
            </SimpleGrid>
          </Box>
        ))}
      </Stack>
    </Box>
  );
}

/** An address or an id: the current value, what is typed kept until the field is left, then saved if it changed. */
function PlainField({ field, busy, save }: FieldProps) {
  const { t } = useTranslation();
  // what is being typed (null: not editing, the stored value shows, live changes included)
  const [draft, setDraft] = useState<string | null>(null);
  const draftRef = useRef<string | null>(null);

  function edit(value: string | null) {
    draftRef.current = value;
    setDraft(value);
  }

  function commit() {
    const typed = draftRef.current;
    edit(null);
    if (typed === null) return;
    const value = typed.trim();
    if (value !== field.value) void save(field.key, value);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'Enter') commit();
    else if (e.key === 'Escape') edit(null);
  }

  return (
    <Field.Root disabled={busy} data-testid={`setting-${field.key}`}>
      <Field.Label>{t(`settings.integrations.fields.${field.key}`)}</Field.Label>
      <Input
        size="sm"
        autoComplete="off"
        value={draft ?? field.value}
        onChange={(e) => edit(e.target.value)}
        onBlur={commit}
        onKeyDown={onKeyDown}
        data-testid={`setting-field-${field.key}`}
      />
    </Field.Root>
  );
}

/** A token: starts empty (the masked value is only the placeholder); a new one is saved on leaving or Enter. */
function SecretField({ field, busy, save }: FieldProps) {
  const { t } = useTranslation();
  const label = t(`settings.integrations.fields.${field.key}`);
  const [draft, setDraft] = useState('');
  const draftRef = useRef('');
  const sending = useRef(false);

  function edit(value: string) {
    draftRef.current = value;
    setDraft(value);
  }

  async function send(value: string) {
    if (sending.current) return;
    sending.current = true;
    try {
      // emptied once saved: the placeholder then shows the server's new mask; kept to try again if refused
      if (await save(field.key, value)) edit('');
    } finally {
      sending.current = false;
    }
  }

  function commit() {
    const value = draftRef.current.trim();
    // nothing typed leaves the secret as it is; the mask itself is not a value (the server would ignore it)
    if (!value || isMasked(value)) {
      if (draftRef.current) edit('');
      return;
    }
    void send(value);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'Enter') commit();
    else if (e.key === 'Escape') edit('');
  }

  const set = field.value !== '';
  return (
    <Field.Root disabled={busy} data-testid={`setting-${field.key}`}>
      <Field.Label>{label}</Field.Label>
      <HStack gap="2" w="full">
        <Input
          size="sm"
          type="password"
          autoComplete="new-password"
          value={draft}
          placeholder={set ? field.value : t('settings.integrations.notSet')}
          onChange={(e) => edit(e.target.value)}
          onBlur={commit}
          onKeyDown={onKeyDown}
          data-testid={`setting-field-${field.key}`}
        />
        {set && (
          <Button
            size="sm"
            variant="outline"
            colorPalette="red"
            disabled={busy}
            aria-label={t('settings.integrations.removeLabel', { field: label })}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => {
              edit('');
              void send('');
            }}
            data-testid={`setting-clear-${field.key}`}
          >
            {t('settings.integrations.remove')}
          </Button>
        )}
      </HStack>
    </Field.Root>
  );
}
