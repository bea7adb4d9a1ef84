import { Alert, Button, Dialog, HStack, Input, Portal, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdCheck, MdContentCopy } from 'react-icons/md';

/** How long the copy button says "Copiado". */
export const COPIED_MS = 1500;

/** The clipboard API, else the old selection copy (a page outside a secure context). */
async function writeClipboard(text: string): Promise<void> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return;
    }
  } catch {
    // refused: the old way
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    document.execCommand?.('copy');
  } finally {
    area.remove();
  }
}

/**
 * The signing secret the server just made, shown this once: "guarde agora", the secret with a copy button,
 * and how a receiver checks a delivery's signature. Closed, it is gone (the server never shows it again).
 */
export function SecretDialog({ secret, onClose }: { secret: string; onClose(): void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  async function copy() {
    await writeClipboard(secret);
    setCopied(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  }
  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size="lg" closeOnInteractOutside={false}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="webhook-secret-dialog">
            <Dialog.Header>
              <Dialog.Title>{t('webhooks.secret.dialogTitle')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                <Alert.Root status="warning">
                  <Alert.Indicator />
                  <Alert.Title>{t('webhooks.secret.onlyOnce')}</Alert.Title>
                </Alert.Root>
                <HStack>
                  <Input
                    readOnly
                    value={secret}
                    fontFamily="mono"
                    textStyle="sm"
                    aria-label={t('webhooks.secret.title')}
                    onFocus={(e) => e.target.select()}
                    data-testid="webhook-secret-value"
                  />
                  <Button
                    variant="outline"
                    colorPalette={copied ? 'green' : 'teal'}
                    onClick={() => void copy()}
                    data-testid="webhook-secret-copy"
                    data-copied={copied ? 'true' : undefined}
                  >
                    {copied ? <MdCheck /> : <MdContentCopy />}
                    {copied ? t('webhooks.secret.copied') : t('webhooks.secret.copy')}
                  </Button>
                </HStack>
                <Text textStyle="sm" color="fg.muted">
                  {t('webhooks.secret.howToCheck')}
                </Text>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button colorPalette="teal" onClick={onClose} data-testid="webhook-secret-close">
                {t('webhooks.secret.done')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
