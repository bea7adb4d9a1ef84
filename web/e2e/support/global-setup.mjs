// Starts the product once for every browser test, unless WEB_E2E_WEB_URL points at one already running.
import { startProduct } from './product.mjs';

export default async function globalSetup() {
  if (process.env.WEB_E2E_WEB_URL) return;
  const product = await startProduct();
  globalThis.__WEB_E2E_PRODUCT__ = product;
}
