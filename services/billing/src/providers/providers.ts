import type { FactoryProvider, Provider } from '@nestjs/common';
import { BillingEnv } from '../config/env.js';
import { EfiPixProvider } from './efi.provider.js';
import { PIX_PROVIDER, type PixProvider } from './pix-provider.js';
import { SandboxPixProvider } from './sandbox.provider.js';

export { EfiPixProvider } from './efi.provider.js';
export { PIX_PROVIDER, type PixProvider } from './pix-provider.js';
export { SandboxPixProvider, webhookSecretOf, webhookSignature } from './sandbox.provider.js';

/** PIX_PROVIDER: the provider PIX_PROVIDER names (`sandbox`, the default, or `efi`). */
export const pixProviderFactory: FactoryProvider<PixProvider> = {
  provide: PIX_PROVIDER,
  useFactory: (env: BillingEnv, sandbox: SandboxPixProvider): PixProvider =>
    env.PIX_PROVIDER === 'efi' ? new EfiPixProvider(env) : sandbox,
  inject: [BillingEnv, SandboxPixProvider],
};

/**
 * What a module lists to have the Pix provider: PIX_PROVIDER, and the sandbox by its class (its payer, POST
 * /billing/sandbox/charges/{txid}/pay, answers ERR_SANDBOX_PROVIDER_ONLY when PIX_PROVIDER is not `sandbox`).
 */
export const pixProviders: Provider[] = [SandboxPixProvider, pixProviderFactory];
