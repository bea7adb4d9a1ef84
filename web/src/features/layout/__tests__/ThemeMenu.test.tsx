import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, waitFor } from '@testing-library/react';
import type { UserDto } from '@wa/contracts';
import { ThemeProvider } from 'next-themes';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { changeLanguage, currentLanguage } from '../../../app/i18n';
import { sessionStarted } from '../../../app/session';
import { StorageKeys } from '../../../app/storage';
import { makeStore } from '../../../app/store';
import { renderWithProviders } from '../../../test/render';
import { TopBar } from '../TopBar';

const themeInit = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../../../public/theme-init.js'), 'utf8');
const realFetch = globalThis.fetch;
const realMatchMedia = window.matchMedia;
let osDark = false;
const osListeners = new Set<(e: { matches: boolean }) => void>();

/** The operating system's light or dark, as prefers-color-scheme reports it (and announces its changes). */
function osScheme() {
  window.matchMedia = ((query: string) => ({
    matches: query.includes('dark') ? osDark : false,
    media: query,
    onchange: null,
    addListener: (l: (e: { matches: boolean }) => void) => osListeners.add(l),
    removeListener: (l: (e: { matches: boolean }) => void) => osListeners.delete(l),
    addEventListener: (_: string, l: (e: { matches: boolean }) => void) => osListeners.add(l),
    removeEventListener: (_: string, l: (e: { matches: boolean }) => void) => osListeners.delete(l),
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
}

beforeEach(() => {
  osDark = false;
  osListeners.clear();
  osScheme();
  localStorage.clear();
  document.documentElement.className = '';
  document.documentElement.style.colorScheme = '';
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL((input as Request).url);
    const body = url.pathname === '/tickets' ? { tickets: [], count: 0, hasMore: false } : { records: [], count: 0, hasMore: false };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(async () => {
  globalThis.fetch = realFetch;
  window.matchMedia = realMatchMedia;
  localStorage.clear();
  document.documentElement.className = '';
  if (currentLanguage() !== 'pt') await changeLanguage('pt');
});

function renderTopBar() {
  const store = makeStore();
  store.dispatch(
    sessionStarted({
      token: 't',
      user: {
        id: 7,
        name: 'Ana',
        profile: 'user',
        companyId: 1,
        queues: [],
        company: { id: 1, name: 'Acme', settings: [] },
      } as unknown as UserDto,
    }),
  );
  return renderWithProviders(
    <ThemeProvider attribute="class" storageKey={StorageKeys.preferredTheme} defaultTheme="light" enableSystem disableTransitionOnChange>
      <TopBar onToggleMenu={() => undefined} wide />
    </ThemeProvider>,
    { store },
  );
}

const isDark = () => document.documentElement.classList.contains('dark');

describe('the theme: light, dark or the system’s', () => {
  it('offers Claro, Escuro and Sistema; Sistema follows prefers-color-scheme, and is kept', async () => {
    osDark = true;
    const r = renderTopBar();
    expect(isDark()).toBe(false);
    fireEvent.click(r.getByTestId('theme-toggle'));
    const system = await waitFor(() => r.getByTestId('theme-system'));
    expect(r.getByTestId('theme-light').textContent).toContain('Claro');
    expect(r.getByTestId('theme-dark').textContent).toContain('Escuro');
    expect(system.textContent).toContain('Sistema');
    fireEvent.click(system);
    await waitFor(() => expect(isDark()).toBe(true));
    expect(localStorage.getItem(StorageKeys.preferredTheme)).toBe('system');
    expect(r.getByTestId('theme-toggle').getAttribute('data-theme')).toBe('dark');
    expect(r.getByTestId('theme-toggle').getAttribute('aria-label')).toBe('Tema: Sistema');

    // the system turns light: so does the console
    osDark = false;
    act(() => osListeners.forEach((l) => l({ matches: false })));
    await waitFor(() => expect(isDark()).toBe(false));
  });

  it('is named in English and Spanish too', async () => {
    await changeLanguage('en');
    const r = renderTopBar();
    fireEvent.click(r.getByTestId('theme-toggle'));
    expect((await waitFor(() => r.getByTestId('theme-system'))).textContent).toContain('System');
    await act(() => changeLanguage('es'));
    await waitFor(() => expect(r.getByTestId('theme-system').textContent).toContain('Sistema'));
    expect(r.getByTestId('theme-dark').textContent).toContain('Oscuro');
  });

  it('the page starts dark before the app runs (public/theme-init.js): a dark choice, or the system’s when it is dark', () => {
    const run = () => new Function(themeInit)() as void;
    localStorage.setItem(StorageKeys.preferredTheme, 'dark');
    run();
    expect(isDark()).toBe(true);
    expect(document.documentElement.style.colorScheme).toBe('dark');

    document.documentElement.className = '';
    localStorage.setItem(StorageKeys.preferredTheme, 'system');
    osDark = true;
    run();
    expect(isDark()).toBe(true);

    document.documentElement.className = '';
    osDark = false;
    run();
    expect(isDark()).toBe(false);

    localStorage.setItem(StorageKeys.preferredTheme, 'light');
    osDark = true;
    run();
    expect(isDark()).toBe(false);
  });
});
