import { Box, Button, Center, Code, Collapsible, Dialog, HStack, Input, Portal, Spinner, Stack, Text } from '@chakra-ui/react';
import type { WhatsappDto } from '@wa/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MdContentCopy } from 'react-icons/md';
import { errorText } from '../../app/errors';
import { useRequestPairingCodeMutation } from './connections.api';
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
 * The alternative to the QR: the phone's number typed (with the country code; anything but digits is dropped), a
 * code asked of the server and shown large, as WhatsApp shows it (XXXX-XXXX), to type on the phone (WhatsApp >
 * Linked devices > Link with phone number), with a copy button.
 */
function PairingByNumber({ connectionId }: { connectionId: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [number, setNumber] = useState('');
  const [copied, setCopied] = useState(false);
  const [request, { data, error, isLoading, reset }] = useRequestPairingCodeMutation();
  const digits = number.replace(/\D/g, '');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (digits.length >= 10) void request({ id: connectionId, number: digits });
  };
  const copy = async (code: string) => {
    try {
      await navigator.clipboard?.writeText(code);
      setCopied(true);
    } catch {
      // refused by the browser: the code stays on screen to type
    }
  };
  if (!open)
    return (
      <Button variant="outline" size="sm" onClick={() => setOpen(true)} data-testid="pairing-by-number">
        {t('connections.qr.byNumber')}
      </Button>
    );
  if (data?.code)
    return (
      <Stack gap="2" align="center" data-testid="pairing-code-box">
        <Text textStyle="sm" color="fg.muted" textAlign="center">
          {t('connections.qr.codeHint')}
        </Text>
        <HStack gap="3">
          <Text fontFamily="mono" fontSize="3xl" fontWeight="bold" letterSpacing="widest" data-testid="pairing-code">
            {data.code}
          </Text>
          <Button size="sm" variant="ghost" aria-label={t('connections.qr.copy')} onClick={() => void copy(data.code)}>
            <MdContentCopy /> {copied ? t('connections.qr.copied') : t('connections.qr.copy')}
          </Button>
        </HStack>
        <Button
          size="xs"
          variant="plain"
          onClick={() => {
            reset();
            setCopied(false);
          }}
        >
          {t('connections.qr.otherNumber')}
        </Button>
      </Stack>
    );
  return (
    <Stack as="form" gap="2" width="full" onSubmit={submit}>
      <Text textStyle="sm" id="pairing-number-label">
        {t('connections.qr.numberLabel')}
      </Text>
      <HStack>
        <Input
          aria-labelledby="pairing-number-label"
          data-testid="pairing-number"
          inputMode="tel"
          autoComplete="tel"
          placeholder="5511999990000"
          value={number}
          onChange={(e) => setNumber(e.target.value)}
        />
        <Button type="submit" loading={isLoading} disabled={digits.length < 10 || digits.length > 15}>
          {t('connections.qr.getCode')}
        </Button>
      </HStack>
      {error ? (
        <Text textStyle="sm" color="fg.error" role="alert">
          {errorText(error, t)}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * The pairing code of a connection in state qrcode, drawn as a QR code to read with the phone
 * (WhatsApp > Linked devices); it closes itself when a session update arrives with an empty qrcode
 * (spec 01 §4). The raw code stays one click away; the phone's number gets a pairing code instead (PairingByNumber).
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
                  {whatsapp && <PairingByNumber connectionId={whatsapp.id} />}
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
