import type { OpenAPIObject } from '@nestjs/swagger';
import { describeOpenApi } from '@wa/server-kit';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProxyService } from '../routing/proxy.service.js';
import { OpenApiAggregator } from './openapi.aggregator.js';

/** A service's document as server-kit builds it: a console route, a public one, the public API, /health. */
function serviceDocument(): OpenAPIObject {
  return describeOpenApi({
    openapi: '3.0.0',
    info: { title: 'tickets', version: '1' },
    paths: {
      '/tickets': { get: { responses: { '200': { description: '{ tickets, hasMore, nextCursor }' } } } },
      '/version': { get: { 'x-wa-auth': 'public', responses: { '200': { description: '{ version }' } } } as never },
      '/api/v1/messages/send': {
        post: {
          'x-wa-auth': 'connection-token',
          responses: {
            '202': { description: 'queued' },
            '400': { description: 'ERR_VALIDATION' },
            '401': { description: 'ERR_UNAUTHENTICATED' },
            '403': { description: 'ERR_NO_PERMISSION' },
            '429': { description: 'Retry-After' },
          },
        } as never,
      },
      '/health': { get: { 'x-wa-auth': 'public', responses: { '200': { description: 'up' } } } as never },
    },
  });
}

describe('OpenApiAggregator', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const body = JSON.stringify(serviceDocument());
    server = createServer((req, res) => {
      if (req.url === '/openapi.json') res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("keeps each operation's security, answers and the schemes and ErrorBody they name; drops /health", async () => {
    const aggregator = new OpenApiAggregator({ targets: { tickets: url, billing: 'http://127.0.0.1:1' } } as unknown as ProxyService);
    const doc = await aggregator.document();
    expect(Object.keys(doc.paths).sort()).toEqual(['/api/v1/messages/send', '/tickets', '/version']);
    expect(Object.keys(doc.components?.securitySchemes ?? {}).sort()).toEqual(['bearer', 'connectionToken']);
    expect(doc.components?.schemas).toHaveProperty('ErrorBody');
    expect(doc.paths['/tickets']?.get?.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/version']?.get?.security).toEqual([]);
    const send = doc.paths['/api/v1/messages/send']?.post;
    expect(send?.security).toEqual([{ connectionToken: [] }]);
    expect(Object.keys(send?.responses ?? {}).sort()).toEqual(['202', '400', '401', '403', '429']);
    expect(send?.responses['400']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
    });
    expect(doc.info.description).toContain('billing');
  });
});
