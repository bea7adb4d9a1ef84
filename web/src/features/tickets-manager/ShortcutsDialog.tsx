import { Box, CloseButton, Dialog, HStack, Portal, Stack, Text } from '@chakra-ui/react';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { SHORTCUTS } from '../tickets/shortcuts';

/** The sheet of the ticket manager's keyboard shortcuts ("?"). */
export function ShortcutsDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size="sm">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="shortcuts-dialog">
            <Dialog.Header pe="12">
              <Dialog.Title>{t('shortcuts.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack as="dl" gap="2">
                {SHORTCUTS.map(({ action, keys }) => (
                  <HStack key={action} justify="space-between" gap="4" data-testid={`shortcut-${action}`}>
                    <Text as="dt" textStyle="sm">
                      {t(`shortcuts.${action}`)}
                    </Text>
                    <HStack as="dd" gap="1" flexShrink={0} textStyle="xs" color="fg.muted">
                      {keys.map((combo, i) => (
                        <Fragment key={combo.join('+')}>
                          {i > 0 && <span>{t('shortcuts.or')}</span>}
                          {combo.map((key) => (
                            <Box
                              as="kbd"
                              key={key}
                              px="1.5"
                              minW="6"
                              textAlign="center"
                              borderWidth="1px"
                              borderBottomWidth="2px"
                              borderRadius="sm"
                              bg="bg.muted"
                              color="fg"
                              fontFamily="mono"
                            >
                              {key}
                            </Box>
                          ))}
                        </Fragment>
                      ))}
                    </HStack>
                  </HStack>
                ))}
              </Stack>
              <Text mt="4" textStyle="xs" color="fg.muted">
                {t('shortcuts.hint')}
              </Text>
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} data-testid="shortcuts-close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
