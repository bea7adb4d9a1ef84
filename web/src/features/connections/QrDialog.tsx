import { Box, Center, Code, Dialog, Portal, Spinner, Stack, Text } from '@chakra-ui/react';
import type { WhatsappDto } from '@wa/contracts';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The pairing code of a connection in state qrcode; it closes itself when a session update arrives
 * with an empty qrcode (spec 01 §4). The code is shown as text: drawing it as a QR image needs a QR
 * encoder package (e.g. qrcode.react), which this build does not have yet.
 */
export function QrDialog({ whatsapp, onClose }: { whatsapp: WhatsappDto | undefined; onClose(): void }) {
  const { t } = useTranslation();
  const qrcode = whatsapp?.qrcode ?? '';
  useEffect(() => {
    if (whatsapp && !qrcode && whatsapp.status !== 'qrcode') onClose();
  }, [whatsapp, qrcode, onClose]);
  return (
    <Dialog.Root lazyMount unmountOnExit open={!!whatsapp} onOpenChange={(e) => !e.open && onClose()} size="md">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="qr-dialog">
            <Dialog.Header>
              <Dialog.Title>{t('connections.qr.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {qrcode ? (
                <Stack gap="2">
                  <Text textStyle="sm" color="fg.muted">
                    {t('connections.qr.raw')}
                  </Text>
                  <Box maxH="48" overflow="auto">
                    <Code display="block" whiteSpace="pre-wrap" wordBreak="break-all" p="3" data-testid="qr-code">
                      {qrcode}
                    </Code>
                  </Box>
                </Stack>
              ) : (
                <Center py="8" gap="3">
                  <Spinner />
                  <Text>{t('connections.qr.waiting')}</Text>
                </Center>
              )}
            </Dialog.Body>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
