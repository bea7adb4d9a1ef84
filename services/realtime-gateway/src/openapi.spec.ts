import { describeOpenApiDocument, openApiDocumentOf } from '@wa/testing';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Routes whose success answer is not described yet (issue 45 §1). This list may only shrink: describe a
 * route (`@ApiResponse({ status: 2xx, description | type })`) and take it off; a new route comes described.
 */
const UNDESCRIBED: string[] = [];

describeOpenApiDocument('realtime-gateway', dirname(fileURLToPath(import.meta.url)), UNDESCRIBED);

describe("server-kit's routes in the OpenAPI document", () => {
  it('health and metrics need no token; a failed readiness check is not an ErrorBody', async () => {
    const { doc, close } = await openApiDocumentOf(dirname(fileURLToPath(import.meta.url)), 'realtime-gateway');
    try {
      expect(Object.keys(doc.paths).sort()).toEqual(expect.arrayContaining(['/health', '/health/live', '/health/ready', '/metrics']));
      expect(doc.paths['/health']?.get?.security).toEqual([]);
      expect(doc.paths['/metrics']?.get?.security).toEqual([]);
      expect(doc.paths['/health']?.get?.responses['503']).toMatchObject({
        content: { 'application/json': { schema: { type: 'object' } } },
      });
    } finally {
      await close();
    }
  });
});
