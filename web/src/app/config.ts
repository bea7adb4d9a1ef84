declare global {
  interface Window {
    /** written by the web server's /config.js before the bundle runs */
    __CONVERSA__?: { apiUrl?: string };
  }
}

function viteEnv(): Record<string, string | undefined> {
  try {
    return (import.meta as unknown as { env?: Record<string, string | undefined> }).env ?? {};
  } catch {
    return {};
  }
}

/** The API host: runtime config first, then the build-time variable, then the local default. */
export function apiUrl(): string {
  const url =
    (typeof window !== 'undefined' ? window.__CONVERSA__?.apiUrl : undefined) ?? viteEnv().VITE_API_URL ?? 'http://localhost:8080';
  return url.replace(/\/+$/, '');
}

export const APP_VERSION = viteEnv().VITE_APP_VERSION ?? '0.1.0';
