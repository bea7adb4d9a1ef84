import { Alert, Button, Dialog, HStack, Input, Portal, Stack, Text } from '@chakra-ui/react';
import { useCopyConfirmation } from '../../app/clipboard';
import { useTranslation } from 'react-i18next';
import { MdCheck, MdContentCopy } from 'react-icons/md';

/** How long the copy button says "Copiado". */
export const COPIED_MS = 1500;

/**
 * The signing secret the server just made, shown this once: "guarde agora", the secret with a copy button,
 * and how a receiver checks a delivery's signature. Closed, it is gone (the server never shows it again).
 */
export function SecretDialog({ secret, onClose }: { secret: string; onClose(): void }) {
  const { t } = useTranslation();
  const confirmation = useCopyConfirmation(COPIED_MS);
  const copied = confirmation.copied;
  const copy = () => confirmation.copy(secret);
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
