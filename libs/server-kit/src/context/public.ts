import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'wa:isPublic';
/** The route needs no token (health, metrics, login, version). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
