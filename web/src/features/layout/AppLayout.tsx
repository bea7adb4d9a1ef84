import { Box, Button, Center, Flex, Spinner, Stack, Text } from '@chakra-ui/react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Provider } from 'react-redux';
import { Outlet } from 'react-router-dom';
// the signed-in app's texts and component styles, before anything here renders
import '../../app/app-texts';
import '../../app/app-recipes';
import { errorText } from '../../app/errors';
import { FullPageSpinner } from '../../app/FullPageSpinner';
import { mark } from '../../app/perf';
import { selectUser, userLoaded } from '../../app/session';
import { getToken, storeUser } from '../../app/storage';
import { store, useAppDispatch, useAppSelector } from '../../app/store';
import { RealtimeProvider } from '../../realtime/RealtimeProvider';
import { useSocketCacheSync } from '../../realtime/use-socket-cache-sync';
import { SOCKET_HANDLERS } from './socket-handlers';
import { authApi, useMeQuery } from '../../app/auth.api';
import { ConnectionBanner } from './ConnectionBanner';
import { usePendingTitle } from '../notifications/use-pending-title';
import { SideMenu } from './SideMenu';
import { TopBar } from './TopBar';
import { useSessionReplaced } from './use-session-replaced';
import { DRAWER_OPEN_ABOVE_PX, DRAWER_TEMPORARY_BELOW_PX, DRAWER_WIDTH_PX, useWindowWidth } from '../../components/use-window-width';

const COLLAPSED_WIDTH_PX = 60;
const MobileDrawer = lazy(() => import('./MobileDrawer'));
mark('layout-code');

// a stored session: who it is now, asked as soon as this code is here (the hook below takes the answer);
// meanwhile the app runs with the user as last seen
if (getToken() && !store.getState().session.userFresh) void store.dispatch(authApi.util.prefetch('me', undefined, {}));

function Shell() {
  useSocketCacheSync(SOCKET_HANDLERS);
  useSessionReplaced();
  usePendingTitle();
  const { t } = useTranslation();
  const width = useWindowWidth();
  const temporary = width < DRAWER_TEMPORARY_BELOW_PX;
  const [open, setOpen] = useState(() => window.innerWidth > DRAWER_OPEN_ABOVE_PX);
  const replaced = useAppSelector((s) => s.session.replaced);

  return (
    <Flex h="100dvh" direction="column" bg="bg.subtle">
      <ConnectionBanner />
      <TopBar onToggleMenu={() => setOpen((o) => !o)} wide={width > DRAWER_OPEN_ABOVE_PX} />
      <Flex flex="1" minH="0">
        {temporary ? (
          open && (
            <Suspense fallback={null}>
              <MobileDrawer open={open} onOpenChange={setOpen} />
            </Suspense>
          )
        ) : (
          <Box
            as="nav"
            flexShrink={0}
            w={`${open ? DRAWER_WIDTH_PX : COLLAPSED_WIDTH_PX}px`}
            transition="width 0.2s"
            borderRightWidth="1px"
            bg="bg"
            overflow="hidden"
            data-state={open ? 'open' : 'collapsed'}
          >
            <SideMenu collapsed={!open} />
          </Box>
        )}
        <Box as="main" flex="1" minW="0" minH="0" overflow="auto">
          <Suspense
            fallback={
              <Center h="full">
                <Spinner color="teal.solid" />
              </Center>
            }
          >
            <Outlet />
          </Suspense>
        </Box>
      </Flex>
      {replaced && (
        <Center position="fixed" inset="0" bg="blackAlpha.600" zIndex="overlay" data-testid="session-replaced">
          <Box bg="bg" p="6" borderRadius="md" shadow="lg" maxW="sm" textAlign="center">
            <Text fontWeight="semibold">{t('auth.sessionReplaced')}</Text>
          </Box>
        </Center>
      )}
    </Flex>
  );
}

/** The signed-in frame: loads the user of a stored token, opens the live socket, then the menu, the top bar and the page. */
function SignedIn() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const fresh = useAppSelector((s) => s.session.userFresh);
  const me = useMeQuery(undefined, { skip: fresh });

  useEffect(() => {
    if (me.data && !fresh) {
      storeUser(me.data);
      dispatch(userLoaded(me.data));
    }
  }, [me.data, fresh, dispatch]);

  if (!user) {
    if (me.isError)
      return (
        <Center h="100vh">
          <Stack align="center" gap="4">
            <Text>{errorText(me.error)}</Text>
            <Button onClick={() => me.refetch()}>{t('topBar.refresh')}</Button>
          </Stack>
        </Center>
      );
    return <FullPageSpinner />;
  }
  mark('user');
  return (
    <RealtimeProvider>
      <Shell />
    </RealtimeProvider>
  );
}

/** The Redux store comes with the signed-in part of the app. */
export default function AppLayout() {
  return (
    <Provider store={store}>
      <SignedIn />
    </Provider>
  );
}
