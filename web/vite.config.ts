import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type Plugin, type UserConfig } from 'vite';
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

/** The modules of each named chunk: module id → chunk name (see `chunkPlan`). */
type ChunkPlan = Map<string, string>;

/**
 * A cold load in a few files rather than dozens. Left to the automatic splitting, the code came as 56 files on the
 * sign-in page and about 85 on a signed-in /tickets, most of 0.4–10 KB (each Chakra component and anatomy, each
 * helper shared by a different set of pages): on a busy 2-core box Chromium had them all only 1.5–1.8 s in,
 * six at a time, though the server answered each in 2 ms. Which modules a page needs is only known after
 * tree-shaking (a library's index reaches every component, a page uses a few), so a first build with the automatic
 * splitting, in memory, gives the chunks, and this build merges whole chunks of it, in this order: the chunks the
 * entry imports (`app`); what the sign-in page adds (`sign-in`); what the other public pages add (`public`); what
 * the signed-in layout adds (`signed-in`); what the ticket manager adds (`tickets`). Each is closed under its
 * imports less the groups before it, so no group imports a later one (no chunk cycles); the sign-in page loads what
 * it loaded before, and a signed-in page the sign-in and public groups besides (a few KB of those pages' own code).
 * The entry's own chunk stays as it was: with its modules moved into `app` too, a signed-in cold load never
 * rendered (the entry's top-level await of the layout's import never ended: an import of `app` stayed pending).
 * bench/web, one product, the two builds' web/dist swapped, two pairs (before / after): the sign-in page 56 / 9
 * files, 178.5 / 165.0 KB gzip, its form in 1,842 / 1,548 and 2,072 / 1,840 ms (median of 7 cold loads); a cold
 * /tickets fetched 82 / 13 JS files, the last one in at 1,512 / 669 and 1,832 / 856 ms, but its list was usable no
 * sooner (2,577 / 2,579 and 2,956 / 2,947 ms): there the main thread's compiling and rendering, not the fetching,
 * sets the time on this machine. Fewer, larger files count for more over a real network's round trips.
 */
async function chunkPlan(config: UserConfig): Promise<ChunkPlan> {
  const result = await build({
    ...config,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { ...config.build, write: false },
  });
  const chunks = (Array.isArray(result) ? result : [result])
    .flatMap((r) => ('output' in r ? r.output : []))
    .flatMap((c) => (c.type === 'chunk' ? [c] : []));
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const facade = (path: string) => {
    const chunk = chunks.find((c) => c.facadeModuleId === src(path));
    if (!chunk) throw new Error(`chunk plan: no chunk for ${path}`);
    return chunk.fileName;
  };
  const plan: ChunkPlan = new Map();
  const taken = new Set<string>();
  const merge = (name: string, roots: string[]) => {
    for (const file of reachable(roots, (f) => byFile.get(f)?.imports ?? [])) {
      if (taken.has(file)) continue;
      taken.add(file);
      for (const id of byFile.get(file)?.moduleIds ?? []) if (!id.startsWith('\0')) plan.set(id, name);
    }
  };
  const entries = chunks.filter((c) => c.isEntry).map((c) => c.fileName);
  for (const entry of entries) taken.add(entry);
  merge(
    'app',
    entries.flatMap((entry) => byFile.get(entry)?.imports ?? []),
  );
  merge('sign-in', [facade('features/auth/LoginPage.tsx')]);
  merge(
    'public',
    ['SignupPage', 'ForgetPasswordPage', 'LegalPage'].map((page) => facade(`features/auth/${page}.tsx`)),
  );
  merge('signed-in', [facade('features/layout/AppLayout.tsx')]);
  merge('tickets', [facade('features/tickets-manager/TicketsPage.tsx')]);
  return plan;
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

const config = {
  root: here,
  mode: 'production',
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
} satisfies UserConfig;

export default defineConfig(async ({ command }) => {
  if (command !== 'build') return { ...config, plugins: [react()] };
  const plan = await chunkPlan(config);
  return {
    ...config,
    plugins: [react(), preloadSignedIn()],
    build: {
      ...config.build,
      rolldownOptions: {
        ...config.build.rolldownOptions,
        output: { codeSplitting: { groups: [{ name: (id: string) => plan.get(id) ?? null, includeDependenciesRecursively: false }] } },
      },
    },
  };
});
