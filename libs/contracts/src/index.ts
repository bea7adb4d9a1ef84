export * from './errors/error-codes.js';
export * from './auth/auth.types.js';
export * from './events/subjects.js';
export * from './realtime/socket-events.js';
