import { describeOpenApiDocument, openApiDocumentOf } from '@wa/testing';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Routes whose success answer is not described yet (issue 45 §1). This list may only shrink: describe a
 * route (`@ApiResponse({ status: 2xx, description | type })`) and take it off; a new route comes described.
 */
const UNDESCRIBED: string[] = [];

describeOpenApiDocument('auth', dirname(fileURLToPath(import.meta.url)), UNDESCRIBED);

describe('public routes in the OpenAPI document', () => {
  it('say they need no token, and answer no 401/403 of their own', async () => {
    const { doc, close } = await openApiDocumentOf(dirname(fileURLToPath(import.meta.url)), 'auth');
    try {
      const login = doc.paths['/auth/login']?.post;
      expect(login?.security).toEqual([]);
      expect(Object.keys(login?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '500']));
      expect(doc.paths['/users']?.get?.security).toEqual([{ bearer: [] }]);
    } finally {
      await close();
    }
  });
});
