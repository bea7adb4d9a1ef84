import { Box, type BoxProps } from '@chakra-ui/react';
import { useEffect, type ComponentType, type ReactNode } from 'react';
import { PermissionGate } from '../../app/PermissionGate';
import { authApi } from '../../app/auth.api';
import { selectUser } from '../../app/session';
import { writeItem } from '../../app/storage';
import { useAppSelector, type RootState } from '../../app/store';
import { campaignsShown, CSHOW_KEY } from './campaign-rules';

const selectMe = authApi.endpoints.me.select();

/**
 * Whether the campaign screens may open (the `cshow` rule): a "no" from the user as last stored waits for
 * /auth/me, as the plan-gated pages do. The original's local-storage flag `cshow` follows the rule.
 */
export function useCampaignsAllowed(): boolean | null {
  const user = useAppSelector(selectUser);
  const fresh = useAppSelector((s) => s.session.userFresh);
  const meFailed = useAppSelector((s: RootState) => selectMe(s).isError);
  const shown = campaignsShown(user);
  useEffect(() => {
    if (shown) writeItem(CSHOW_KEY, 'true');
  }, [shown]);
  if (shown) return true;
  return fresh || meFailed ? false : null;
}

/**
 * A campaign-area page behind the rule: the permission notice and / after 1 s when it does not hold; the page
 * (and its calls) only when it does.
 */
export function withCampaignsGate(Page: ComponentType): ComponentType {
  return function CampaignsGate() {
    return (
      <PermissionGate allowed={useCampaignsAllowed()}>
        <Page />
      </PermissionGate>
    );
  };
}

/** A campaign-area page's box. */
export function CampaignPageBox({ children, ...box }: { children: ReactNode } & BoxProps) {
  return (
    <Box p="4" h="full" display="flex" flexDirection="column" {...box}>
      {children}
    </Box>
  );
}
