import { Box } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useConnectionLost } from '../../realtime/RealtimeProvider';

/** Above the signed-in app while the live socket is away (after a drop, not while it first connects): what the agent sees may be old. */
export function ConnectionBanner() {
  const { t } = useTranslation();
  if (!useConnectionLost()) return null;
  return (
    <Box
      role="status"
      aria-live="polite"
      px="3"
      py="1.5"
      flexShrink={0}
      bg="orange.solid"
      color="orange.contrast"
      textStyle="sm"
      textAlign="center"
      data-testid="connection-banner"
    >
      {t('connection.lost')}
    </Box>
  );
}
