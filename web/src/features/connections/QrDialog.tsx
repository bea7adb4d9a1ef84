import { Box, Center, Code, Collapsible, Dialog, Portal, Spinner, Stack, Text } from '@chakra-ui/react';
import type { WhatsappDto } from '@wa/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { QrMatrix } from './qr-matrix';

/** Modules of white margin around the code, as scanners expect. */
const QUIET_ZONE = 4;

/** The code drawn as an SVG; the encoder is loaded when a code is first shown. */
function QrImage({ code, label }: { code: string; label: string }) {
  const [matrix, setMatrix] = useState<QrMatrix | null>(null);
  useEffect(() => {
    let live = true;
    void import('./qr-matrix').then(({ qrMatrix }) => {
      if (live) setMatrix(qrMatrix(code));
    });
    return () => {
      live = false;
    };
  }, [code]);
  if (!matrix) return <Spinner />;
  const side = matrix.size + 2 * QUIET_ZONE;
  return (
    <svg
      data-testid="qr-image"
      role="img"
      aria-label={label}
      viewBox={`${-QUIET_ZONE} ${-QUIET_ZONE} ${side} ${side}`}
      width="264"
      height="264"
      shapeRendering="crispEdges"
    >
      <rect x={-QUIET_ZONE} y={-QUIET_ZONE} width={side} height={side} fill="#ffffff" />
      <path d={matrix.path} fill="#000000" />
    </svg>
  );
}

/**
 * The pairing code of a connection in state qrcode, drawn as a QR code to read with the phone
 * (WhatsApp > Linked devices); it closes itself when a session update arrives with an empty qrcode
 * (spec 01 §4). The raw code stays one click away.
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
                <Stack gap="3" align="center">
                  <Center minH="264px">
                    <QrImage code={qrcode} label={t('connections.qr.title')} />
                  </Center>
                  <Collapsible.Root width="full">
                    <Collapsible.Trigger asChild>
                      <Text as="button" textStyle="sm" color="fg.muted" cursor="pointer">
                        {t('connections.qr.raw')}
                      </Text>
                    </Collapsible.Trigger>
                    <Collapsible.Content>
                      <Box maxH="32" overflow="auto" mt="2">
                        <Code display="block" whiteSpace="pre-wrap" wordBreak="break-all" p="3" data-testid="qr-code">
                          {qrcode}
                        </Code>
                      </Box>
                    </Collapsible.Content>
                  </Collapsible.Root>
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
