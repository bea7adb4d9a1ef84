import { Center, Spinner, Text } from '@chakra-ui/react';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { notify } from './notify';

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
