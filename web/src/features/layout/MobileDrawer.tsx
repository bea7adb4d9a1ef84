import { CloseButton, Drawer, Portal } from '@chakra-ui/react';
import { DRAWER_WIDTH_PX } from '../../components/use-window-width';
import { SideMenu } from './SideMenu';

/** Below 600 px the menu is a temporary drawer over the page (spec 01 §2 "Layout behaviour"). */
export default function MobileDrawer({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  return (
    <Drawer.Root lazyMount unmountOnExit open={open} onOpenChange={(e) => onOpenChange(e.open)} placement="start">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content maxW={`${DRAWER_WIDTH_PX}px`}>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Drawer.CloseTrigger>
            <SideMenu collapsed={false} onNavigate={() => onOpenChange(false)} />
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
