import { Badge, Box, Flex, HStack, IconButton, Menu, Popover, Portal, Slider, Text } from '@chakra-ui/react';
import { useTheme } from 'next-themes';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdDarkMode, MdLightMode, MdLogout, MdMenu, MdRefresh, MdTranslate, MdVolumeUp } from 'react-icons/md';
import { useNavigate } from 'react-router-dom';
import { loggedOut, selectIsAdmin, selectUser } from '../../app/session';
import { clearSession, readItem, StorageKeys, writeItem } from '../../app/storage';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { changeLanguage, currentLanguage, LANGUAGES, type Language } from '../../i18n';
import { Deferred } from '../../app/Deferred';
import { useLogoutMutation } from '../auth/auth.api';
import { brDate, expiryWarningDays } from '../auth/expiry';
import { ContactAvatar } from '../tickets/ContactAvatar';

/** spec 01 §9: volume 0 to 1 in steps of 0.1, stored locally. */
export function storedVolume(): number {
  const v = Number(readItem(StorageKeys.volume) ?? '1');
  return Number.isFinite(v) ? Math.min(1, Math.max(0, Math.round(v * 10) / 10)) : 1;
}

function VolumeControl() {
  const { t } = useTranslation();
  const [volume, setVolume] = useState(storedVolume);
  const button = (onClick?: () => void) => (
    <IconButton variant="ghost" size="sm" aria-label={t('topBar.volume')} title={t('topBar.volume')} onClick={onClick} data-testid="volume-button">
      <MdVolumeUp />
    </IconButton>
  );
  return (
    <Deferred placeholder={button}>
      <Popover.Root defaultOpen lazyMount unmountOnExit positioning={{ placement: 'bottom' }}>
        <Popover.Trigger asChild>{button()}</Popover.Trigger>
        <Portal>
          <Popover.Positioner>
            <Popover.Content width="52">
              <Popover.Body>
                <Slider.Root
                  min={0}
                  max={1}
                  step={0.1}
                  value={[volume]}
                  onValueChange={(e) => {
                    const v = Math.round((e.value[0] ?? 0) * 10) / 10;
                    setVolume(v);
                    writeItem(StorageKeys.volume, String(v));
                  }}
                  aria-label={[t('topBar.volume')]}
                  data-testid="volume-slider"
                >
                  <Slider.Label textStyle="xs">{t('topBar.volume')}</Slider.Label>
                  <Slider.Control>
                    <Slider.Track>
                      <Slider.Range />
                    </Slider.Track>
                    <Slider.Thumbs />
                  </Slider.Control>
                </Slider.Root>
              </Popover.Body>
            </Popover.Content>
          </Popover.Positioner>
        </Portal>
      </Popover.Root>
    </Deferred>
  );
}

function ThemeToggle() {
  const { t } = useTranslation();
  const { resolvedTheme, setTheme } = useTheme();
  const dark = resolvedTheme === 'dark';
  return (
    <IconButton
      variant="ghost"
      size="sm"
      aria-label={dark ? t('topBar.lightMode') : t('topBar.darkMode')}
      title={dark ? t('topBar.lightMode') : t('topBar.darkMode')}
      onClick={() => setTheme(dark ? 'light' : 'dark')}
      data-testid="theme-toggle"
      data-theme={dark ? 'dark' : 'light'}
    >
      {dark ? <MdLightMode /> : <MdDarkMode />}
    </IconButton>
  );
}

function LanguageMenu() {
  const { t } = useTranslation();
  const button = (onClick?: () => void) => (
    <IconButton variant="ghost" size="sm" aria-label={t('topBar.language')} title={t('topBar.language')} onClick={onClick} data-testid="language-menu">
      <MdTranslate />
    </IconButton>
  );
  return (
    <Deferred placeholder={button}>
      <Menu.Root defaultOpen lazyMount unmountOnExit onSelect={(d) => void changeLanguage(d.value as Language)}>
        <Menu.Trigger asChild>{button()}</Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content>
              {LANGUAGES.map((lng) => (
                <Menu.Item key={lng} value={lng} data-testid={`language-${lng}`} fontWeight={currentLanguage() === lng ? 'bold' : undefined}>
                  {t(`languages.${lng}`)}
                </Menu.Item>
              ))}
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
    </Deferred>
  );
}

function AccountMenu() {
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

  const button = (onClick?: () => void) => (
    <IconButton variant="ghost" size="sm" borderRadius="full" aria-label={t('topBar.account')} title={t('topBar.account')} onClick={onClick} data-testid="account-menu">
      <ContactAvatar name={user?.name} size="xs" />
    </IconButton>
  );
  return (
    <Deferred placeholder={button}>
      <Menu.Root defaultOpen lazyMount unmountOnExit onSelect={(d) => d.value === 'logout' && void signOut()}>
        <Menu.Trigger asChild>{button()}</Menu.Trigger>
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
              <Menu.Item value="logout" data-testid="logout">
                <MdLogout />
                {t('topBar.logout')}
              </Menu.Item>
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
    </Deferred>
  );
}

export function TopBar({ onToggleMenu, wide }: { onToggleMenu: () => void; wide: boolean }) {
  const { t } = useTranslation();
  const user = useAppSelector(selectUser);
  const isAdmin = useAppSelector(selectIsAdmin);
  const dueDate = user?.company?.dueDate;
  const expiryDays = isAdmin ? expiryWarningDays(dueDate) : null;

  return (
    <Flex as="header" align="center" gap="2" px="2" h="14" flexShrink={0} bg="teal.solid" color="teal.contrast" data-testid="top-bar">
      <IconButton variant="ghost" size="sm" color="inherit" _hover={{ bg: 'whiteAlpha.300' }} aria-label={t('topBar.toggleMenu')} onClick={onToggleMenu} data-testid="menu-toggle">
        <MdMenu />
      </IconButton>
      <Box flex="1" minW="0">
        <Text textStyle="sm" truncate data-testid="greeting">
          {t('topBar.greeting', { name: user?.name ?? '', company: user?.company?.name ?? '' })}
          {isAdmin && wide && dueDate ? ` · ${t('topBar.activeUntil', { date: brDate(dueDate) })}` : ''}
        </Text>
      </Box>
      {expiryDays !== null && (
        <Badge colorPalette="orange" variant="solid" data-testid="expiry-warning">
          {t('auth.expiry', { days: expiryDays })}
        </Badge>
      )}
      <HStack gap="0.5" css={{ '& button': { color: 'inherit' }, '& button:hover': { bg: 'whiteAlpha.300' } }}>
        <VolumeControl />
        <ThemeToggle />
        <LanguageMenu />
        <IconButton variant="ghost" size="sm" aria-label={t('topBar.refresh')} title={t('topBar.refresh')} onClick={() => window.location.reload()}>
          <MdRefresh />
        </IconButton>
        <AccountMenu />
      </HStack>
    </Flex>
  );
}
