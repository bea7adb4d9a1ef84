import { Menu, Portal } from '@chakra-ui/react';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLanguage, LANGUAGES, type Language } from '../../../app/i18n';

/** Português, English, Español: the choice is kept in local storage. */
export default function LanguageMenu({ trigger }: { trigger: ReactElement }) {
  const { t } = useTranslation();
  return (
    <Menu.Root defaultOpen lazyMount unmountOnExit onSelect={(d) => void changeLanguage(d.value as Language)}>
      <Menu.Trigger asChild>{trigger}</Menu.Trigger>
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
  );
}
