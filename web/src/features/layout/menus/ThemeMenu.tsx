import { Menu, Portal } from '@chakra-ui/react';
import { useTheme } from 'next-themes';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';

/** The themes one can choose: 'system' follows the operating system's light or dark (prefers-color-scheme). */
export const THEMES = ['light', 'dark', 'system'] as const;

/** Claro, Escuro, Sistema: the choice is kept in local storage (public/theme-init.js applies it before the first paint). */
export default function ThemeMenu({ trigger }: { trigger: ReactElement }) {
  const { t } = useTranslation();
  const { theme, setTheme } = useTheme();
  return (
    <Menu.Root defaultOpen lazyMount unmountOnExit>
      <Menu.Trigger asChild>{trigger}</Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            <Menu.RadioItemGroup value={theme ?? 'light'} onValueChange={(d) => setTheme(d.value)}>
              {THEMES.map((value) => (
                <Menu.RadioItem key={value} value={value} data-testid={`theme-${value}`}>
                  {t(`theme.${value}`)}
                  <Menu.ItemIndicator />
                </Menu.RadioItem>
              ))}
            </Menu.RadioItemGroup>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
