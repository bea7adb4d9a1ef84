import { useEffect, useRef } from 'react';

type Language = 'pt' | 'en' | 'es';

const translations: Record<Language, () => Promise<unknown>> = {
  pt: () => import('@emoji-mart/data/i18n/pt.json').then((m) => m.default),
  en: () => import('@emoji-mart/data/i18n/en.json').then((m) => m.default),
  es: () => import('@emoji-mart/data/i18n/es.json').then((m) => m.default),
};

/**
 * emoji-mart's own picker (a web component; its React wrapper stops at React 18), with the emoji data
 * bundled (no CDN: the console works offline of third parties), in the console's language. Loaded when
 * first opened.
 */
export default function EmojiPickerPanel({ language, onPick }: { language: string; onPick(emoji: string): void }) {
  const host = useRef<HTMLDivElement>(null);
  const pick = useRef(onPick);
  pick.current = onPick;

  useEffect(() => {
    let cancelled = false;
    const lang: Language = language === 'en' || language === 'es' ? language : 'pt';
    void (async () => {
      const [{ Picker }, data, i18n] = await Promise.all([
        import('emoji-mart'),
        import('@emoji-mart/data').then((m) => m.default),
        translations[lang](),
      ]);
      if (cancelled || !host.current) return;
      const picker = new Picker({
        data,
        i18n,
        locale: lang,
        theme: document.documentElement.classList.contains('dark') ? 'dark' : 'light',
        previewPosition: 'none',
        skinTonePosition: 'search',
        onEmojiSelect: (e: { native: string }) => pick.current(e.native),
      });
      host.current.replaceChildren(picker as unknown as Node);
    })();
    return () => {
      cancelled = true;
      host.current?.replaceChildren();
    };
  }, [language]);

  return <div ref={host} data-testid="emoji-picker" />;
}
