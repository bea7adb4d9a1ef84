/** Builds the library at `libDir` (its tsconfig.json) when a file under its `src` is newer than its `dist/index.js`. */
export function ensureLibBuilt(libDir: string): void;
