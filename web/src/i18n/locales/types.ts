import type { Messages } from './pt';

/** Another language: the same keys as Portuguese, any text. */
export type Translation<T = Messages> = { [K in keyof T]: T[K] extends string ? string : Translation<T[K]> };
