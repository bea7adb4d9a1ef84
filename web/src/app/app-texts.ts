import pt from '../i18n/locales/pt';
import { i18n } from './i18n';

/**
 * The signed-in app's Portuguese texts (the login page carries only pt-public.ts): imported by the signed-in
 * layout for this effect, so they are there before it renders, and fetched alongside its code.
 */
i18n.addResourceBundle('pt', 'translation', pt, true, true);
