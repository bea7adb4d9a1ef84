import type { Messages } from './pt';

/** A plural form only some languages have (Portuguese and Spanish: "many", for counts like 1 000 000). */
type LanguageOwnPlural = `${string}_many`;

/** Another language: the same keys as Portuguese, any text; `key_many` only where the language has that form. */
export type Translation<T = Messages> = {
  [K in keyof T as K extends LanguageOwnPlural ? never : K]: T[K] extends string ? string : Translation<T[K]>;
} & { [K in keyof T as K extends LanguageOwnPlural ? K : never]?: string };
