export * from './errors/error-codes.js';
export * from './auth/auth.types.js';
export * from './events/subjects.js';
export * from './events/whatsapp.events.js';
export * from './events/tickets.events.js';
export * from './realtime/socket-events.js';
export * from './whatsapp/whatsapp.types.js';
export * from './tickets/tickets.types.js';
