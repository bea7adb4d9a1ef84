import { describeOpenApiDocument } from '@wa/testing';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Routes whose success answer is not described yet (issue 45 §1). This list may only shrink: describe a
 * route (`@ApiResponse({ status: 2xx, description | type })`) and take it off; a new route comes described.
 */
const UNDESCRIBED: string[] = [];

describeOpenApiDocument('campaigns', dirname(fileURLToPath(import.meta.url)), UNDESCRIBED);
