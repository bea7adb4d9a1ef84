export * from './data-source.js';
export * from './tenant-scoped.repository.js';
