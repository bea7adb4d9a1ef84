export * from './data-source.js';
export * from './tenant-scoped.repository.js';
export * from './migrate-main.js';
export * from './prepared-query.js';
export * from './page-reads.js';
export * from './company-rows.js';
export * from './like.js';
