import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * What `scripts/openapi-answers.mjs` writes beside a service's build (dist/openapi-answers.json): the JSON schema of
 * each route's success answer, by operationId (`<Controller>_<method>`, Nest's), read from the TypeScript type its
 * controller method returns, and the named schemas they refer to (`#/components/schemas/…`).
 */
export interface OpenApiAnswers {
  operations: Record<string, Record<string, unknown>>;
  schemas: Record<string, unknown>;
}

export const OPENAPI_ANSWERS_FILE = 'openapi-answers.json';

/** The answers written beside the running service's entry point (dist/main.js), or beside `dir`; null when there are none. */
export function loadOpenApiAnswers(dir: string = dirname(process.argv[1] ?? '.')): OpenApiAnswers | null {
  const file = join(dir, OPENAPI_ANSWERS_FILE);
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as OpenApiAnswers;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * Gives each operation's success answer (its first 2xx response) the schema of what the route returns, unless the
 * route declared one itself (a schema, a type, or another content type), and adds the named schemas. The document becomes OpenAPI 3.1 (its schemas are JSON
 * Schema: `type: ['string', 'null']`, `const`).
 */
export function attachOpenApiAnswers(doc: OpenAPIObject, answers: OpenApiAnswers | null): OpenAPIObject {
  if (!answers) return doc;
  doc.openapi = '3.1.0';
  doc.components ??= {};
  doc.components.schemas = { ...(answers.schemas as Record<string, never>), ...doc.components.schemas };
  for (const item of Object.values(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = (item as Record<string, { operationId?: string; responses?: Record<string, { content?: Record<string, unknown> }> }>)[
        method
      ];
      // a controller with several paths (`['api/v1/messages', 'api/messages']`) numbers its operations `…_send[1]`
      const schema = op?.operationId ? answers.operations[op.operationId.replace(/\[\d+\]$/, '')] : undefined;
      if (!op || !schema) continue;
      const status = Object.keys(op.responses ?? {})
        .filter((s) => /^2\d\d$/.test(s) && s !== '204')
        .sort()[0];
      const response = status ? op.responses?.[status] : undefined;
      if (!response) continue;
      // a route that gave only an example (`@ApiResponse({ example })`) gets the schema beside it
      const json = response.content?.['application/json'] as { schema?: unknown } | undefined;
      if (json && !json.schema) json.schema = schema;
      else if (!response.content) response.content = { 'application/json': { schema } };
    }
  }
  return doc;
}
