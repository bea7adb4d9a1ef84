import { Box, Menu, Portal, Text } from '@chakra-ui/react';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { MdLogout, MdPerson } from 'react-icons/md';
import { useNavigate } from 'react-router-dom';
import { loggedOut, selectUser } from '../../../app/session';
import { clearSession } from '../../../app/storage';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { useLogoutMutation } from '../../../app/auth.api';

/** Who is signed in, their profile (spec 01 §2: own name, password and language) and the logout. */
export default function AccountMenu({ trigger, onProfile }: { trigger: ReactElement; onProfile(): void }) {
  const { t } = useTranslation();
  const user = useAppSelector(selectUser);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [logout] = useLogoutMutation();

  async function signOut() {
    await logout()
      .unwrap()
      .catch(() => undefined);
    clearSession();
    dispatch(loggedOut('logout'));
    navigate('/login', { replace: true });
  }

  return (
    <Menu.Root defaultOpen lazyMount unmountOnExit onSelect={(d) => d.value === 'logout' && void signOut()}>
      <Menu.Trigger asChild>{trigger}</Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="48">
            <Box px="2" py="1.5">
              <Text fontWeight="semibold" textStyle="sm">
                {user?.name}
              </Text>
              <Text color="fg.muted" textStyle="xs">
                {user?.email}
              </Text>
            </Box>
            <Menu.Separator />
            <Menu.Item value="profile" onClick={onProfile} data-testid="profile">
              <MdPerson />
              {t('topBar.profile')}
            </Menu.Item>
            <Menu.Item value="logout" data-testid="logout">
              <MdLogout />
              {t('topBar.logout')}
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
