import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ProxyService } from '../routing/proxy.service.js';
import type { ServiceName } from '../routing/route-table.js';

const REFRESH_MS = 30_000;

/** The public API's paths (a connection's token): what `/api/docs` describes. */
export const PUBLIC_API_PATH = /^\/api\//;

/** The named schemas a value refers to (`#/components/schemas/<name>`), and those they refer to, from `schemas`. */
export function referencedSchemas(value: unknown, schemas: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!v || typeof v !== 'object') return;
    for (const [key, inner] of Object.entries(v)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/components/schemas/')) {
        const name = inner.slice('#/components/schemas/'.length);
        if (!(name in out) && name in schemas) {
          out[name] = schemas[name];
          visit(schemas[name]);
        }
      } else visit(inner);
    }
  };
  visit(value);
  return out;
}

/** `/docs`: the OpenAPI documents of every service merged into one, refreshed in the background. */
@Injectable()
export class OpenApiAggregator implements OnApplicationShutdown {
  private readonly logger = new Logger(OpenApiAggregator.name);
  private merged: OpenAPIObject | undefined;
  private fetchedAt = 0;
  private inFlight: Promise<OpenAPIObject> | undefined;

  constructor(private readonly proxy: ProxyService) {}

  async document(): Promise<OpenAPIObject> {
    if (this.merged && Date.now() - this.fetchedAt < REFRESH_MS) return this.merged;
    this.inFlight ??= this.collect().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  /** `/api/docs`: the public API's routes alone (a connection's token), with the schemas they use. */
  async publicDocument(): Promise<OpenAPIObject> {
    const all = await this.document();
    const paths = Object.fromEntries(Object.entries(all.paths).filter(([path]) => PUBLIC_API_PATH.test(path)));
    const schemas = (all.components?.schemas ?? {}) as Record<string, unknown>;
    const used = referencedSchemas(paths, schemas);
    const securitySchemes = Object.fromEntries(
      Object.entries(all.components?.securitySchemes ?? {}).filter(([name]) => name === 'connectionToken'),
    );
    return {
      ...all,
      info: {
        title: 'Conversa public API',
        version: '1',
        description: "Send messages and control the connection with the connection's API token (Authorization: Bearer <token>).",
      },
      paths,
      components: { schemas: used as never, securitySchemes: securitySchemes as never },
      security: [{ connectionToken: [] }],
      tags: (all.tags ?? []).filter((t) => Object.values(paths).some((item) => JSON.stringify(item).includes(`"${t.name}"`))),
    };
  }

  onApplicationShutdown(): void {
    this.merged = undefined;
  }

  private async collect(): Promise<OpenAPIObject> {
    const services = Object.entries(this.proxy.targets).filter(([name]) => name !== 'realtime-gateway') as Array<[ServiceName, string]>;
    const documents = await Promise.all(
      services.map(async ([name, url]) => {
        try {
          const res = await fetch(`${url}/openapi.json`, { signal: AbortSignal.timeout(2000) });
          return res.ok ? { name, doc: (await res.json()) as OpenAPIObject } : { name, doc: undefined };
        } catch {
          return { name, doc: undefined };
        }
      }),
    );
    const schemas: Record<string, unknown> = {};
    // each operation names its own security (the user's JWT, a connection's token, or none for public routes)
    const securitySchemes: Record<string, unknown> = { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } };
    const tags: Array<{ name: string }> = [];
    const merged: OpenAPIObject = {
      // the services' schemas are JSON Schema (scripts/openapi-answers.mjs): OpenAPI 3.1
      openapi: '3.1.0',
      info: { title: 'Conversa API', version: '1', description: '' },
      paths: {},
      components: { securitySchemes: securitySchemes as never, schemas: schemas as never },
      security: [{ bearer: [] }],
      tags,
    };
    const missing: string[] = [];
    for (const { name, doc } of documents) {
      if (!doc) {
        missing.push(name);
        continue;
      }
      for (const [path, item] of Object.entries(doc.paths ?? {})) {
        if (path === '/health' || path.startsWith('/health/') || path === '/metrics') continue;
        merged.paths[path] = item;
      }
      Object.assign(schemas, doc.components?.schemas ?? {});
      Object.assign(securitySchemes, doc.components?.securitySchemes ?? {});
      for (const tag of doc.tags ?? []) if (!tags.some((t) => t.name === tag.name)) tags.push(tag);
    }
    merged.info.description = missing.length
      ? `Routes of every service, through the gateway. Not answering now, so not listed: ${missing.join(', ')}.`
      : 'Routes of every service, through the gateway.';
    if (missing.length) this.logger.debug({ missing }, 'openapi: some services did not answer');
    this.merged = merged;
    this.fetchedAt = Date.now();
    return merged;
  }
}
