import { describeOpenApiDocument, openApiDocumentOf } from '@wa/testing';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Routes whose success answer is not described yet (issue 45 §1). This list may only shrink: describe a
 * route (`@ApiResponse({ status: 2xx, description | type })`) and take it off; a new route comes described.
 */
const UNDESCRIBED: string[] = [];

describeOpenApiDocument('tickets', dirname(fileURLToPath(import.meta.url)), UNDESCRIBED);

describe('the public messages API in the OpenAPI document', () => {
  it('answers exactly what its contract says (e2e pins the list), called with a connection token', async () => {
    const { doc, close } = await openApiDocumentOf(dirname(fileURLToPath(import.meta.url)), 'tickets');
    try {
      for (const path of ['/api/messages/send', '/api/v1/messages/send']) {
        const send = doc.paths[path]?.post;
        expect([path, Object.keys(send?.responses ?? {}).sort()]).toEqual([path, ['202', '400', '401', '403', '429']]);
        expect(send?.security).toEqual([{ connectionToken: [] }]);
      }
      for (const path of ['/api/messages/{id}', '/api/v1/messages/{id}']) {
        expect(Object.keys(doc.paths[path]?.get?.responses ?? {}).sort()).toEqual(['200', '400', '401', '403', '404']);
      }
      expect(doc.components?.securitySchemes).toHaveProperty('connectionToken');
      expect(doc.paths['/tickets']?.get?.security).toEqual([{ bearer: [] }]);
      expect(doc.paths['/tickets']?.get?.responses?.['404']).toBeUndefined();
      expect(doc.paths['/tickets/{id}']?.get?.responses?.['404']).toMatchObject({
        description: 'ERR_NO_TICKET_FOUND',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
      });
    } finally {
      await close();
    }
  });
});
