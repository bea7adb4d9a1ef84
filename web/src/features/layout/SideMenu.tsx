import { Badge, Box, Flex, Icon, Separator, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IconType } from 'react-icons';
import {
  MdApi,
  MdAttachFile,
  MdAttachMoney,
  MdCampaign,
  MdChat,
  MdChecklist,
  MdContacts,
  MdDashboard,
  MdEvent,
  MdFlashOn,
  MdHelpOutline,
  MdHub,
  MdLabel,
  MdLink,
  MdListAlt,
  MdPeople,
  MdQueue,
  MdSend,
  MdSettings,
  MdSmartToy,
  MdTune,
  MdViewKanban,
  MdWebhook,
  MdWhatsapp,
} from 'react-icons/md';
import { NavLink } from 'react-router-dom';
import { selectIsAdmin, selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { useVersionQuery } from '../../app/auth.api';
import { useUnreadChats } from '../team-chat/use-unread-chats';
import { useListWhatsappsQuery } from '../connections/connections.api';
import { BADGE_DELAY_MS, connectionsNeedAttention } from './connection-badge';
import { viewerOf, visibleMenuItems, type MenuKey } from './menu-items';

const ICONS: Record<MenuKey, IconType> = {
  dashboard: MdDashboard,
  tickets: MdWhatsapp,
  quickMessages: MdFlashOn,
  kanban: MdViewKanban,
  todolist: MdChecklist,
  contacts: MdContacts,
  schedules: MdEvent,
  tags: MdLabel,
  chats: MdChat,
  helps: MdHelpOutline,
  campaigns: MdSend,
  contactLists: MdListAlt,
  campaignsConfig: MdTune,
  announcements: MdCampaign,
  prompts: MdSmartToy,
  queueIntegration: MdHub,
  connections: MdLink,
  files: MdAttachFile,
  queues: MdQueue,
  users: MdPeople,
  messagesAPI: MdApi,
  webhooks: MdWebhook,
  financeiro: MdAttachMoney,
  settings: MdSettings,
};

/** "!" on connections: any connection needing attention, looked at 2 s after load and then as they change. */
function useConnectionsBadge(): boolean {
  const isAdmin = useAppSelector(selectIsAdmin);
  const due = useAfter(BADGE_DELAY_MS);
  // asked for when it is due, not on the first paint; then kept current by the live events
  const { data } = useListWhatsappsQuery(undefined, { skip: !isAdmin || !due });
  return isAdmin && due && connectionsNeedAttention(data);
}

/** true once `ms` have passed since the first render */
function useAfter(ms: number): boolean {
  const [due, setDue] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setDue(true), ms);
    return () => clearTimeout(timer);
  }, [ms]);
  return due;
}

/** The version at the foot of the menu: asked for after the first paint. */
const VERSION_DELAY_MS = 1500;

export function SideMenu({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const user = useAppSelector(selectUser);
  const items = visibleMenuItems(viewerOf(user));
  const badge = useConnectionsBadge();
  // the chats item's dot: the user has unread internal chat messages (spec 01 §2 "Side menu")
  const chatsUnread = useUnreadChats().total > 0;
  const versionDue = useAfter(VERSION_DELAY_MS);
  const { data: version } = useVersionQuery(undefined, { skip: !versionDue });
  const main = items.filter((i) => i.group === 'main');
  const admin = items.filter((i) => i.group === 'admin');

  const link = (key: MenuKey, to: string) => (
    <NavLink
      key={key}
      to={to}
      onClick={onNavigate}
      end={to === '/'}
      data-testid={`menu-${key}`}
      title={collapsed ? t(`menu.${key}`) : undefined}
    >
      {({ isActive }) => (
        <Flex
          align="center"
          gap="3"
          px="3"
          py="2"
          mx="2"
          borderRadius="md"
          bg={isActive ? 'teal.subtle' : undefined}
          color={isActive ? 'teal.fg' : 'fg'}
          _hover={{ bg: isActive ? 'teal.subtle' : 'bg.muted' }}
          position="relative"
        >
          <Icon as={ICONS[key]} boxSize="5" flexShrink={0} />
          {!collapsed && (
            <Text textStyle="sm" fontWeight={isActive ? 'semibold' : 'normal'} truncate>
              {t(`menu.${key}`)}
            </Text>
          )}
          {key === 'chats' && chatsUnread && (
            <Box
              as="span"
              w="2.5"
              h="2.5"
              borderRadius="full"
              bg="red.solid"
              flexShrink={0}
              ml={collapsed ? undefined : 'auto'}
              position={collapsed ? 'absolute' : undefined}
              top={collapsed ? '1' : undefined}
              right={collapsed ? '1' : undefined}
              role="img"
              aria-label={t('chats.unreadDot')}
              data-testid="chats-unread-dot"
            />
          )}
          {key === 'connections' && badge && (
            <Badge
              colorPalette="red"
              variant="solid"
              size="xs"
              borderRadius="full"
              ml={collapsed ? undefined : 'auto'}
              position={collapsed ? 'absolute' : undefined}
              top={collapsed ? '0' : undefined}
              right={collapsed ? '0' : undefined}
              aria-label={t('menu.connectionsAlert')}
              data-testid="connections-badge"
            >
              !
            </Badge>
          )}
        </Flex>
      )}
    </NavLink>
  );

  return (
    <Flex direction="column" h="full" py="3" data-testid="side-menu">
      <Stack gap="1" flex="1" overflowY="auto">
        {main.map((i) => link(i.key, i.to))}
        {admin.length > 0 && (
          <>
            <Separator my="2" />
            {!collapsed && (
              <Text px="5" pb="1" textStyle="xs" color="fg.muted" textTransform="uppercase" letterSpacing="wide">
                {t('menu.administration')}
              </Text>
            )}
            {admin.map((i) => link(i.key, i.to))}
          </>
        )}
      </Stack>
      {!collapsed && version?.version && (
        <Box px="5" pt="2" textStyle="xs" color="fg.muted" data-testid="app-version">
          {t('menu.version', { version: version.version })}
        </Box>
      )}
    </Flex>
  );
}
