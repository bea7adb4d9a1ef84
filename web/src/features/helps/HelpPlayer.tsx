import { AspectRatio, CloseButton, Dialog, Portal, Text } from '@chakra-ui/react';
import type { HelpDto } from '@wa/contracts';
import { useTranslation } from 'react-i18next';
import { embedUrlOf } from './help-rules';

/**
 * A help's video (spec 02 "Helps"): YouTube's player in a dialog, playing at once; Escape, the close button or
 * a click outside closes it (and the video stops with it).
 */
export function HelpPlayer({ help, onClose }: { help: HelpDto; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size={{ base: 'full', md: 'xl' }} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="help-player">
            <Dialog.Header pe="12">
              <Dialog.Title>{help.title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} data-testid="help-player-close" />
            </Dialog.CloseTrigger>
            <Dialog.Body pb="6">
              <AspectRatio ratio={16 / 9} bg="black" borderRadius="md" overflow="hidden">
                <iframe
                  src={embedUrlOf(help.video)}
                  title={help.title}
                  allow="autoplay; encrypted-media; picture-in-picture"
                  allowFullScreen
                  style={{ border: 0 }}
                  data-testid="help-player-frame"
                />
              </AspectRatio>
              {help.description && (
                <Text mt="4" color="fg.muted" whiteSpace="pre-wrap">
                  {help.description}
                </Text>
              )}
            </Dialog.Body>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
