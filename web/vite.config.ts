import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { EARLY_SLOT, requestFirstTicketList } from './src/app/early-requests.js';
import { StorageKeys } from './src/app/storage.js';

const here = dirname(fileURLToPath(import.meta.url));
const src = (path: string) => resolve(here, 'src', path);

/** Everything reached from `roots` by following `next` (a module's static imports, a chunk's imports). */
function reachable(roots: readonly string[], next: (id: string) => readonly string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...next(id));
  }
  return seen;
}

/** Static imports only: what a module needs before it runs. */
type ModuleGraph = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };
const staticallyReached = (graph: ModuleGraph, roots: string[]) => reachable(roots, (id) => graph.getModuleInfo(id)?.importedIds ?? []);

/**
 * A signed-in cold load of /tickets needs the layout's and the ticket manager's code: left to the automatic
 * splitting it came as a hundred chunks of 1–10 KB (each API slice, each helper its own), which the browser
 * fetches six at a time, one round after another. Here most of it is two chunks, fetched side by side:
 * `signed-in` (the layout, the store and what every signed-in screen runs) and `tickets` (the ticket manager, less
 * what the layout has). What the entry or a public page (sign-in, sign-up, password, legal) may run stays out of
 * both (so those pages load none of it), and so does a library's code reached through its index (Chakra's
 * components: the sign-in page shares them). Each group is closed under static imports (less those left out,
 * themselves closed), so no two chunks import each other.
 */
let partition: { firstPages: Set<string>; layout: Set<string>; tickets: Set<string> } | null = null;
function signedInChunk(id: string, graph: ModuleGraph): string | null {
  if (!partition) {
    partition = {
      firstPages: staticallyReached(graph, [
        src('main.tsx'),
        ...['LoginPage', 'SignupPage', 'ForgetPasswordPage', 'LegalPage'].map((page) => src(`features/auth/${page}.tsx`)),
      ]),
      layout: staticallyReached(graph, [src('features/layout/AppLayout.tsx')]),
      tickets: staticallyReached(graph, [src('features/tickets-manager/TicketsPage.tsx')]),
    };
  }
  const { firstPages, layout, tickets } = partition;
  if (firstPages.has(id)) return null;
  if (layout.has(id)) return 'signed-in';
  return tickets.has(id) ? 'tickets' : null;
}

/**
 * A signed-in browser starts fetching the layout's and the ticket manager's chunks while the page is still being
 * parsed, rather than once the entry's code has run (its theme, its i18n, its router): a small classic script,
 * run before the entry, adds their `<link rel="modulepreload">` when a session is stored (the sign-in page, with
 * none, loads nothing more). Its own file, as the Content-Security-Policy admits no inline script. On /tickets it
 * also asks for the first ticket list (app/early-requests.ts), whose answer is there when the code is.
 */
function preloadSignedIn(): Plugin {
  return {
    name: 'conversa:preload-signed-in',
    enforce: 'post',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []));
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (roots: string[]) => reachable(roots, (file) => byFile.get(file)?.imports ?? []);
      const facade = (path: string) => {
        const chunk = chunks.find((c) => c.facadeModuleId === src(path));
        if (!chunk) throw new Error(`preload-signed-in: no chunk for ${path}`);
        return chunk.fileName;
      };
      const initial = closure(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
      const layout = [...closure([facade('features/layout/AppLayout.tsx')])].filter((f) => !initial.has(f));
      const tickets = [...closure([facade('features/tickets-manager/TicketsPage.tsx')])].filter(
        (f) => !initial.has(f) && !layout.includes(f),
      );
      const url = (files: string[]) => JSON.stringify(files.map((f) => `/${f}`));
      const code = `// the signed-in layout's chunks (and the ticket manager's, on /tickets), fetched while the page is parsed
(function () {
  try {
    if (!localStorage.getItem(${JSON.stringify(StorageKeys.token)})) return;
    var add = function (href) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.setAttribute('href', href);
      document.head.appendChild(link);
    };
    ${url(layout)}.forEach(add);
    if (location.pathname.indexOf('/tickets') === 0) ${url(tickets)}.forEach(add);
  } catch (e) {
    /* no storage here: the chunks load when imported */
  }
  // the first ticket list (on /tickets), asked for now rather than once the code above has come and run
  try {
    (${requestFirstTicketList.toString()})(${JSON.stringify(StorageKeys)}, ${JSON.stringify(EARLY_SLOT)});
  } catch (e) {
    /* the app asks for it itself */
  }
})();
`;
      const fileName = `assets/preload-signed-in-${createHash('sha256').update(code).digest('hex').slice(0, 8)}.js`;
      this.emitFile({ type: 'asset', fileName, source: code });
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset' || typeof html.source !== 'string') throw new Error('preload-signed-in: no index.html');
      const at = html.source.indexOf('<script type="module"');
      if (at < 0) throw new Error('preload-signed-in: no module script in index.html');
      html.source = `${html.source.slice(0, at)}<script src="/${fileName}"></script>\n    ${html.source.slice(at)}`;
    },
  };
}

export default defineConfig({
  root: here,
  mode: 'production',
  plugins: [react(), preloadSignedIn()],
  resolve: {
    alias: { '@wa/contracts': resolve(here, '../libs/contracts/src/index.ts') },
  },
  build: {
    outDir: resolve(here, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // each group is closed under static imports (less the first page's modules): no chunk cycles
          groups: [{ name: signedInChunk, includeDependenciesRecursively: false }],
        },
      },
      treeshake: {
        // Chakra's theme module builds its whole default theme with `defineConfig({ … })` (an identity function)
        // as it loads: unless the bundler knows the call is pure, every recipe (date picker, combobox, colour
        // picker…) stays in the first page's code although app/theme.ts picks only the ones the app uses.
        manualPureFunctions: ['defineConfig'],
      },
    },
  },
  server: { port: 3000 },
  preview: { port: 3000 },
});
