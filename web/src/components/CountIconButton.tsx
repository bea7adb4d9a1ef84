import { Box, IconButton } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/**
 * A top bar button with a red count in its corner (notifications, internal chat, announcements): `badge` is the
 * count as shown ("9+"), none when null, and begins the button's accessible name; `count` the number itself, on
 * `data-count` for tests and tools.
 */
export function CountIconButton({
  label,
  icon,
  count,
  badge,
  testId,
  badgeTestId,
  onClick,
}: {
  label: string;
  icon: ReactNode;
  count: number;
  badge: string | null;
  testId: string;
  badgeTestId: string;
  onClick?: () => void;
}) {
  return (
    <IconButton
      variant="ghost"
      size="sm"
      position="relative"
      // the accessible name holds the count shown on the button (WCAG 2.5.3, label in name): "3 Notificações"
      aria-label={badge ? `${badge} ${label}` : label}
      title={label}
      onClick={onClick}
      data-testid={testId}
      data-count={count}
    >
      {icon}
      {badge && (
        <Box
          as="span"
          position="absolute"
          top="0"
          insetEnd="0"
          minW="4"
          h="4"
          px="1"
          borderRadius="full"
          bg="red.solid"
          color="red.contrast"
          fontSize="2xs"
          fontWeight="bold"
          lineHeight="1rem"
          textAlign="center"
          pointerEvents="none"
          data-testid={badgeTestId}
        >
          {badge}
        </Box>
      )}
    </IconButton>
  );
}
