import { Badge, Box, Flex, HStack, IconButton, Text } from '@chakra-ui/react';
import { useTheme } from 'next-themes';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdBrightnessAuto, MdDarkMode, MdLightMode, MdMenu, MdRefresh, MdTranslate, MdVolumeUp } from 'react-icons/md';
import { Deferred } from '../../app/Deferred';
import { selectIsAdmin, selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { AnnouncementsButton } from '../announcements/AnnouncementsButton';
import { brDate, companyTimeZone, expiryWarningDays } from '../../app/expiry';
import { ChatsButton } from '../team-chat/ChatsButton';
import { NotificationsButton } from '../notifications/NotificationsButton';
import { ContactAvatar } from '../../components/ContactAvatar';

// the menus load when first opened
const VolumePopover = lazy(() => import('./menus/VolumePopover'));
const LanguageMenu = lazy(() => import('./menus/LanguageMenu'));
const AccountMenu = lazy(() => import('./menus/AccountMenu'));
const ThemeMenu = lazy(() => import('./menus/ThemeMenu'));
const UserDialog = lazy(() => import('../users/UserDialog').then((m) => ({ default: m.UserDialog })));

/** The theme's button shows the theme in use (the system's, when that is the choice); its menu offers light, dark and system. */
function ThemePicker() {
  const { t } = useTranslation();
  const { theme, resolvedTheme } = useTheme();
  const dark = resolvedTheme === 'dark';
  const label = `${t('theme.label')}: ${t(`theme.${theme === 'dark' || theme === 'system' ? theme : 'light'}`)}`;
  const button = (onClick?: () => void) => (
    <IconButton
      variant="ghost"
      size="sm"
      aria-label={label}
      title={label}
      onClick={onClick}
      data-testid="theme-toggle"
      data-theme={dark ? 'dark' : 'light'}
      data-choice={theme}
    >
      {theme === 'system' ? <MdBrightnessAuto /> : dark ? <MdDarkMode /> : <MdLightMode />}
    </IconButton>
  );
  return (
    <Deferred placeholder={button}>
      <ThemeMenu trigger={button()} />
    </Deferred>
  );
}

/** Top bar: menu toggle, greeting, volume, dark/light, language, reload, announcements, notifications and the account menu (spec 01 §2, spec 02). */
export function TopBar({ onToggleMenu, wide }: { onToggleMenu: () => void; wide: boolean }) {
  const { t } = useTranslation();
  const user = useAppSelector(selectUser);
  const isAdmin = useAppSelector(selectIsAdmin);
  const dueDate = user?.company?.dueDate;
  const [profileOpen, setProfileOpen] = useState(false);
  // spec 01 §4: the subscription's warning shows to everyone signed in; the due date in the greeting only to admins
  const expiryDays = expiryWarningDays(dueDate, new Date(), companyTimeZone(user?.company));

  const volumeButton = (onClick?: () => void) => (
    <IconButton
      variant="ghost"
      size="sm"
      aria-label={t('topBar.volume')}
      title={t('topBar.volume')}
      onClick={onClick}
      data-testid="volume-button"
    >
      <MdVolumeUp />
    </IconButton>
  );
  const languageButton = (onClick?: () => void) => (
    <IconButton
      variant="ghost"
      size="sm"
      aria-label={t('topBar.language')}
      title={t('topBar.language')}
      onClick={onClick}
      data-testid="language-menu"
    >
      <MdTranslate />
    </IconButton>
  );
  const accountButton = (onClick?: () => void) => (
    <IconButton
      variant="ghost"
      size="sm"
      borderRadius="full"
      aria-label={t('topBar.account')}
      title={t('topBar.account')}
      onClick={onClick}
      data-testid="account-menu"
    >
      <ContactAvatar name={user?.name} size="xs" />
    </IconButton>
  );

  return (
    <Flex as="header" align="center" gap="2" px="2" h="14" flexShrink={0} bg="teal.solid" color="teal.contrast" data-testid="top-bar">
      <IconButton
        variant="ghost"
        size="sm"
        color="inherit"
        _hover={{ bg: 'whiteAlpha.300' }}
        aria-label={t('topBar.toggleMenu')}
        onClick={onToggleMenu}
        data-testid="menu-toggle"
      >
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
        <Deferred placeholder={volumeButton}>
          <VolumePopover trigger={volumeButton()} />
        </Deferred>
        <ThemePicker />
        <Deferred placeholder={languageButton}>
          <LanguageMenu trigger={languageButton()} />
        </Deferred>
        <IconButton
          variant="ghost"
          size="sm"
          aria-label={t('topBar.refresh')}
          title={t('topBar.refresh')}
          onClick={() => window.location.reload()}
        >
          <MdRefresh />
        </IconButton>
        <AnnouncementsButton />
        <ChatsButton />
        <NotificationsButton />
        <Deferred placeholder={accountButton}>
          <AccountMenu trigger={accountButton()} onProfile={() => setProfileOpen(true)} />
        </Deferred>
      </HStack>
      {profileOpen && user && (
        <Suspense fallback={null}>
          <UserDialog user={user} ownProfile onClose={() => setProfileOpen(false)} />
        </Suspense>
      )}
    </Flex>
  );
}
