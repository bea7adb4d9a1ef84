export * from './env.js';
export * from './http-client.js';
export * from './boot.js';
export * from './service-basics.js';
export * from './start-service.js';
export * from './records.js';
export * from './media-fixtures.js';
export * from './company-session.js';
