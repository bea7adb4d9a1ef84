import { describe, expect, it } from '@jest/globals';
import type { OpenAPIObject } from '@nestjs/swagger';
import { attachOpenApiAnswers } from './openapi-answers.js';

const doc = (): OpenAPIObject => ({
  openapi: '3.0.0',
  info: { title: 't', version: '1' },
  paths: {
    '/things': {
      get: { operationId: 'ThingsController_list', responses: { '200': { description: 'a page of things' } } },
      post: {
        operationId: 'ThingsController_create',
        responses: { '201': { description: 'the thing', content: { 'text/plain': {} } }, '400': { description: 'bad' } },
      },
    },
    '/things/{id}': {
      get: {
        operationId: 'ThingsController_get',
        responses: { '200': { description: 'a thing', content: { 'application/json': { example: { id: 1 } } } } },
      },
    },
    '/v1/things/{id}': {
      delete: { operationId: 'ThingsController_remove[1]', responses: { '200': { description: 'removed' }, '204': { description: '' } } },
    },
  },
  components: { schemas: { ErrorBody: { type: 'object' } } },
});

describe('attachOpenApiAnswers', () => {
  it("gives each operation's first success answer the schema of what its method returns, without overwriting a declared one", () => {
    const out = attachOpenApiAnswers(doc(), {
      operations: {
        ThingsController_list: { $ref: '#/components/schemas/ThingsPage' },
        ThingsController_create: { $ref: '#/components/schemas/Thing' },
        ThingsController_get: { $ref: '#/components/schemas/Thing' },
        ThingsController_remove: { type: 'object', properties: { message: { type: 'string' } } },
      },
      schemas: { ThingsPage: { type: 'object' }, Thing: { type: 'object' }, ErrorBody: { type: 'string' } },
    });
    expect(out.openapi).toBe('3.1.0');
    expect(out.paths['/things'].get!.responses['200']).toEqual({
      description: 'a page of things',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingsPage' } } },
    });
    // a route that declared its answer's content keeps it
    expect(out.paths['/things'].post!.responses['201']).toEqual({ description: 'the thing', content: { 'text/plain': {} } });
    // a route that gave an example keeps it, with the schema beside it
    expect(out.paths['/things/{id}'].get!.responses['200']).toEqual({
      description: 'a thing',
      content: { 'application/json': { example: { id: 1 }, schema: { $ref: '#/components/schemas/Thing' } } },
    });
    // an operation numbered for its second path finds its method's answer
    expect((out.paths['/v1/things/{id}'].delete!.responses['200'] as { content?: unknown }).content).toEqual({
      'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } },
    });
    // the document's own schemas win over the build's of the same name
    expect(out.components!.schemas).toEqual({ ThingsPage: { type: 'object' }, Thing: { type: 'object' }, ErrorBody: { type: 'object' } });
  });

  it('leaves a document as it is without answers (a service run from its sources)', () => {
    expect(attachOpenApiAnswers(doc(), null)).toEqual(doc());
  });
});
