export * from './tokens.js';
export * from './decorators.js';
export * from './jwt.strategy.js';
export * from './jwt-auth.guard.js';
export * from './auth-lib.module.js';
export * from './user-directory.js';
export * from './visibility.js';
export * from './service-tokens.js';
