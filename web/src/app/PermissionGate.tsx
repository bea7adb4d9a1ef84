import { Center, Spinner, Text } from '@chakra-ui/react';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { authApi } from './auth.api';
import { notify } from './notify';
import { planAccess, type PlanFlag } from './plan-flags';
import { selectUser } from './session';
import { useAppSelector, type RootState } from './store';

/** spec 02 §9: the permission redirect comes after 1 s. */
export const PERMISSION_REDIRECT_MS = 1000;

/**
 * A page the company may not have (spec 02 §6, §8: plan-gated pages such as /messages-api): when it is not
 * allowed, the notice 'Esta empresa não possui permissão para acessar essa página! Estamos lhe
 * redirecionando.' (a toast and on the page), then / after 1 s. `allowed` null: not known yet (the
 * signed-in user is still being loaded), a spinner meanwhile.
 */
export function PermissionGate({ allowed, children }: { allowed: boolean | null; children: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const warned = useRef(false);
  const denied = allowed === false;

  useEffect(() => {
    if (!denied) return;
    if (!warned.current) {
      warned.current = true;
      notify.errorText(t('errors.noPagePermission'));
    }
    const timer = setTimeout(() => navigate('/', { replace: true }), PERMISSION_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [denied, navigate, t]);

  if (allowed === null) {
    return (
      <Center h="full" py="10">
        <Spinner color="teal.solid" />
      </Center>
    );
  }
  if (denied) {
    return (
      <Center h="full" p="6" data-testid="page-not-allowed">
        <Text color="fg.muted" textAlign="center">
          {t('errors.noPagePermission')}
        </Text>
      </Center>
    );
  }
  return <>{children}</>;
}

const selectMe = authApi.endpoints.me.select();

/**
 * Whether the company's plan has the feature: known from the signed-in user; a "no" from the user as last
 * seen (local storage) waits for /auth/me, so a plan just upgraded is not turned away.
 */
export function usePlanAllowed(flag: PlanFlag): boolean | null {
  const user = useAppSelector(selectUser);
  const fresh = useAppSelector((s) => s.session.userFresh);
  const meFailed = useAppSelector((s: RootState) => selectMe(s).isError);
  return planAccess(user, flag, fresh || meFailed);
}

/**
 * A page that needs a feature of the company's plan (spec 02 §6: /prompts needs useOpenAi,
 * /queue-integration useIntegrations, /messages-api useExternalApi): without it, the permission notice and
 * / after 1 s.
 */
export function PlanGate({ flag, children }: { flag: PlanFlag; children: ReactNode }) {
  return <PermissionGate allowed={usePlanAllowed(flag)}>{children}</PermissionGate>;
}
