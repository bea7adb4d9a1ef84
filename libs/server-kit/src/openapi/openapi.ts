import { ApiExtension, type OpenAPIObject } from '@nestjs/swagger';

/**
 * How a route is called, for its OpenAPI entry: the user's JWT (every console route, the default), a
 * connection's API token (the public messages API) or nothing (`@Public()`: login, signup, health…).
 * Set by `Public()` and `PublicApi()`; read and removed by `describeOpenApi`.
 */
export const OPENAPI_AUTH = 'x-wa-auth';
export type OpenApiAuth = 'public' | 'connection-token';

/** Marks a route's (or a controller's) OpenAPI entry with how it is called; the first mark applied wins. */
export const OpenApiAuthOf = (auth: OpenApiAuth) => ApiExtension(OPENAPI_AUTH, auth);

/** The security schemes of every service's document (and of the gateway's merged one). */
export const OPENAPI_SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: "a user's access token (POST /auth/login), for the console's routes",
  },
  connectionToken: {
    type: 'http',
    scheme: 'bearer',
    description: "a connection's API token (the connection's settings), for the public messages API (/api/v1/messages/*)",
  },
} as const;

/** `{ error, message, statusCode, requestId, details }`: what every error answers (libs/server-kit's one filter). */
export const ERROR_BODY_SCHEMA = {
  type: 'object',
  required: ['error', 'message', 'statusCode'],
  properties: {
    error: { type: 'string', description: 'the ERR_* code (libs/contracts errors/error-codes.ts)', example: 'ERR_VALIDATION' },
    message: { type: 'string', description: 'a text for people; the web shows a translated one keyed by `error`' },
    statusCode: { type: 'integer', example: 400 },
    requestId: { type: 'string', description: "the request's id, as in the logs and the X-Request-Id header" },
    details: {
      type: 'array',
      description: "a validation error's problems, field by field",
      items: {
        type: 'object',
        required: ['field', 'messages'],
        properties: { field: { type: 'string' }, messages: { type: 'array', items: { type: 'string' } } },
      },
    },
  },
  additionalProperties: true,
} as const;

export const ERROR_BODY_REF = '#/components/schemas/ErrorBody';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface Operation {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  responses?: Record<string, { description?: string; content?: Record<string, unknown>; $ref?: string }>;
  [extension: string]: unknown;
}

function operationsOf(doc: OpenAPIObject): Array<{ method: string; path: string; op: Operation }> {
  const out: Array<{ method: string; path: string; op: Operation }> = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = (item as Record<string, Operation | undefined>)[method];
      if (op) out.push({ method, path, op });
    }
  }
  return out;
}

const errorContent = () => ({ 'application/json': { schema: { $ref: ERROR_BODY_REF } } });

/**
 * Completes a service's document with what every route shares, without overwriting what a route declares:
 * the `ErrorBody` schema and the security schemes; each operation's security (none for `@Public()` routes);
 * the errors every route can answer (400 ERR_VALIDATION, 401/403 when a token is needed, 500) and the
 * `ErrorBody` schema on every error response. The public messages API gets no 500 (its list of answers is
 * its contract, pinned by e2e).
 */
export function describeOpenApi(doc: OpenAPIObject): OpenAPIObject {
  doc.components ??= {};
  doc.components.schemas = { ...doc.components.schemas, ErrorBody: ERROR_BODY_SCHEMA as never };
  doc.components.securitySchemes = { ...doc.components.securitySchemes, ...OPENAPI_SECURITY_SCHEMES } as never;
  for (const { op } of operationsOf(doc)) {
    const auth = op[OPENAPI_AUTH] as OpenApiAuth | undefined;
    delete op[OPENAPI_AUTH];
    op.security = auth === 'public' ? [] : auth === 'connection-token' ? [{ connectionToken: [] }] : [{ bearer: [] }];
    const responses = (op.responses ??= {});
    const add = (status: string, description: string) => {
      responses[status] ??= { description };
    };
    add('400', 'ERR_VALIDATION: a parameter or a field of the body is not valid (`details` names them); ERR_MALFORMED_JSON');
    if (auth === 'connection-token') {
      add('401', 'ERR_UNAUTHENTICATED: not a connection API token, or its company is disabled');
      add('403', 'ERR_NO_PERMISSION: the plan has no external API (useExternalApi)');
    } else if (auth !== 'public') {
      add('401', 'ERR_UNAUTHENTICATED: no token, or it expired or was revoked; ERR_SESSION_EXPIRED; ERR_SUBSCRIPTION_EXPIRED');
      add('403', "ERR_NO_PERMISSION: the user's profile or the company's plan does not allow it");
    }
    // the public messages API's answers are its contract (pinned by e2e): no 500 added there
    if (auth !== 'connection-token') add('500', 'ERR_INTERNAL: an unexpected failure (the requestId finds it in the logs)');
    for (const [status, response] of Object.entries(responses)) {
      if (!/^[45]\d\d$/.test(status) || response.$ref || response.content) continue;
      response.content = errorContent();
    }
  }
  return doc;
}

/** What is missing from an operation's description: its success answer, or the errors every route answers. */
export function openApiProblems(doc: OpenAPIObject): Array<{ route: string; problems: string[] }> {
  const out: Array<{ route: string; problems: string[] }> = [];
  for (const { method, path, op } of operationsOf(doc)) {
    const problems: string[] = [];
    const responses = op.responses ?? {};
    const success = Object.entries(responses).filter(([status]) => /^2\d\d$/.test(status));
    if (!success.some(([, r]) => (r.description ?? '').trim() !== '' || r.content)) problems.push('no described 2xx response');
    const isPublic = Array.isArray(op.security) && op.security.length === 0;
    const isApi = op.security?.some((s) => 'connectionToken' in s) ?? false;
    const needed = isApi ? ['400', '401', '403'] : isPublic ? ['400', '500'] : ['400', '401', '403', '500'];
    for (const status of needed) if (!responses[status]) problems.push(`no ${status} response`);
    for (const [status, r] of Object.entries(responses)) {
      const schema = (r.content?.['application/json'] as { schema?: { $ref?: string } } | undefined)?.schema;
      if (/^4\d\d$/.test(status) && schema?.$ref !== ERROR_BODY_REF) problems.push(`${status} without the ErrorBody schema`);
    }
    if (problems.length) out.push({ route: `${method.toUpperCase()} ${path}`, problems });
  }
  return out;
}
