import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readItem, StorageKeys, writeItem } from './storage';
import ptPublic from '../i18n/locales/pt-public';
import type { Translation } from '../i18n/locales/types';

export const LANGUAGES = ['pt', 'en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'pt';

const HTML_LANG: Record<Language, string> = { pt: 'pt-BR', en: 'en', es: 'es' };

/**
 * Portuguese ships with the first page, its public pages' and errors' texts only (pt-public.ts): the signed-in
 * layout brings the rest (app/app-texts.ts). The other languages load whole when chosen.
 */
const loaders: Record<Exclude<Language, 'pt'>, () => Promise<{ default: Translation }>> = {
  en: () => import('../i18n/locales/en'),
  es: () => import('../i18n/locales/es'),
};

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: { pt: { translation: ptPublic } },
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function storedLanguage(): Language {
  const stored = readItem(StorageKeys.language)?.slice(0, 2);
  return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
}

/** Loads the language's texts when needed, switches to it and remembers the choice. */
export async function changeLanguage(lng: Language): Promise<void> {
  if (lng !== 'pt' && !i18n.hasResourceBundle(lng, 'translation')) {
    const mod = await loaders[lng]();
    i18n.addResourceBundle(lng, 'translation', mod.default, true, true);
  }
  await i18n.changeLanguage(lng);
  writeItem(StorageKeys.language, lng);
  if (typeof document !== 'undefined') document.documentElement.lang = HTML_LANG[lng];
}

/** Before the first render: the language the user chose last time. */
export async function initI18n(): Promise<void> {
  const lng = storedLanguage();
  if (lng !== i18n.language) await changeLanguage(lng);
}

export function currentLanguage(): Language {
  const lng = i18n.resolvedLanguage ?? i18n.language;
  return isLanguage(lng) ? lng : DEFAULT_LANGUAGE;
}

/** The BCP 47 tag of an app language, for dates written out. */
export function languageTag(language: string | undefined): string {
  const lng = (language ?? 'pt').slice(0, 2);
  return lng === 'en' ? 'en-US' : lng === 'es' ? 'es' : 'pt-BR';
}
