import react from '@vitejs/plugin-react';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));

// `npm start` builds with NODE_ENV=development (meant for the services); a build of the web app is a
// production bundle all the same (React's production build and JSX runtime).
if (process.argv.includes('build')) process.env.NODE_ENV = 'production';

export default defineConfig({
  root: here,
  mode: 'production',
  plugins: [react()],
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
});
