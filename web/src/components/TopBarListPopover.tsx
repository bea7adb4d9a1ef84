import { Box, Popover, Portal, Spinner, Stack, Text } from '@chakra-ui/react';
import type { ReactElement, ReactNode } from 'react';

/**
 * The top bar's list popovers (notifications, internal chat): a titled popover under its button with a spinner
 * while the first page loads, a text when there is nothing, else one clickable row per item. `open` is the
 * caller's, so a click can close it before it navigates.
 */
export function TopBarListPopover<T>({
  trigger,
  title,
  open,
  onOpenChange,
  loading,
  items,
  itemKey,
  onPick,
  renderItem,
  empty,
  testId,
  itemTestId,
  itemData,
}: {
  trigger: ReactElement;
  title: string;
  open: boolean;
  onOpenChange(open: boolean): void;
  loading: boolean;
  items: T[];
  itemKey(item: T): string | number;
  onPick(item: T): void;
  renderItem(item: T): ReactNode;
  empty: { text: string; testId: string };
  testId: string;
  itemTestId: string;
  /** `data-*` attributes of a row (its ids, for tests and tools) */
  itemData?(item: T): Record<`data-${string}`, string | number>;
}) {
  return (
    <Popover.Root open={open} onOpenChange={(e) => onOpenChange(e.open)} lazyMount unmountOnExit positioning={{ placement: 'bottom-end' }}>
      <Popover.Trigger asChild>{trigger}</Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          <Popover.Content width="xs" maxW="calc(100vw - 16px)" data-testid={testId}>
            <Popover.Header fontWeight="semibold" textStyle="sm" borderBottomWidth="1px" py="2" px="3">
              {title}
            </Popover.Header>
            <Popover.Body p="0" maxH="96" overflowY="auto">
              {loading && items.length === 0 ? (
                <Box p="4" textAlign="center">
                  <Spinner size="sm" color="teal.solid" />
                </Box>
              ) : items.length === 0 ? (
                <Text p="4" textStyle="sm" color="fg.muted" textAlign="center" data-testid={empty.testId}>
                  {empty.text}
                </Text>
              ) : (
                <Stack as="ul" gap="0" listStyleType="none" m="0" p="0">
                  {items.map((item) => (
                    <Box as="li" key={itemKey(item)} borderBottomWidth="1px" _last={{ borderBottomWidth: 0 }}>
                      <Box
                        as="button"
                        display="flex"
                        alignItems="center"
                        w="full"
                        gap="3"
                        px="3"
                        py="2.5"
                        textAlign="start"
                        cursor="pointer"
                        _hover={{ bg: 'bg.muted' }}
                        _focusVisible={{ bg: 'bg.muted', outline: 'none' }}
                        onClick={() => onPick(item)}
                        data-testid={itemTestId}
                        {...(itemData?.(item) ?? {})}
                      >
                        {renderItem(item)}
                      </Box>
                    </Box>
                  ))}
                </Stack>
              )}
            </Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}
