import { applyDecorators, SetMetadata } from '@nestjs/common';
import { OpenApiAuthOf } from '../openapi/openapi.js';

export const IS_PUBLIC = 'wa:isPublic';
/** The route needs no token (health, metrics, login, version); its OpenAPI entry says so. */
export const Public = () => applyDecorators(OpenApiAuthOf('public'), SetMetadata(IS_PUBLIC, true));
