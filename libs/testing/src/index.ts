export * from './env.js';
export * from './http-client.js';
export * from './boot.js';
