import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './product.mjs';

export default async function globalTeardown() {
  const product = globalThis.__WEB_E2E_PRODUCT__;
  if (product) await product.stop();
  // jest writes --outputFile after this; its folder may have been cleared while the tests ran
  mkdirSync(join(root, 'reports/jest'), { recursive: true });
}
