import { describe, expect, it } from '@jest/globals';
import type { INestApplication, Type } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import { Test } from '@nestjs/testing';
import { buildOpenApiDocument, HealthController, MetricsController, openApiProblems } from '@wa/server-kit';
import type { OpenAPIObject } from '@nestjs/swagger';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

async function controllerFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await controllerFiles(path)));
    else if (
      /\.ts$/.test(entry.name) &&
      !/\.(spec|int-spec)\.ts$/.test(entry.name) &&
      (await readFile(path, 'utf8')).includes('@Controller(')
    ) {
      out.push(path);
    }
  }
  return out.sort();
}

/** Every controller class a service's sources declare (the files that use `@Controller(`). */
export async function controllersOf(srcDir: string): Promise<Array<Type<unknown>>> {
  const controllers = new Set<Type<unknown>>();
  for (const file of await controllerFiles(srcDir)) {
    const exports = (await import(file)) as Record<string, unknown>;
    for (const value of Object.values(exports)) {
      if (typeof value === 'function' && Reflect.hasOwnMetadata(PATH_METADATA, value)) controllers.add(value as Type<unknown>);
    }
  }
  return [...controllers];
}

/**
 * A service's OpenAPI document as `createServiceApp` builds it, without a database or a bus: its controllers
 * and server-kit's (health, metrics) in a testing module whose providers are all stand-ins (no route is called).
 */
export async function openApiDocumentOf(srcDir: string, title: string): Promise<{ doc: OpenAPIObject; close(): Promise<void> }> {
  const controllers = [HealthController, MetricsController, ...(await controllersOf(srcDir))];
  const moduleRef = await Test.createTestingModule({ controllers })
    .useMocker(() => new Proxy({}, { get: (_t, key) => (key === 'then' ? undefined : () => undefined) }))
    .compile();
  const app: INestApplication = moduleRef.createNestApplication({ logger: false });
  const doc = buildOpenApiDocument(app, title);
  return { doc, close: () => app.close() };
}

/**
 * The check of a service's OpenAPI document: every operation has the errors every route answers (with the
 * `ErrorBody` schema), and a described success answer unless it is one of `undescribed` (method and path,
 * e.g. 'GET /tickets/{ticketId}'). That list may only shrink: a listed route that becomes described fails
 * too, until it is taken off the list.
 */
export function openApiGaps(doc: OpenAPIObject, problemsOf: (doc: OpenAPIObject) => Array<{ route: string; problems: string[] }>) {
  const problems = problemsOf(doc);
  return {
    /** routes missing more than their success description: never allowed */
    incomplete: problems
      .map((p) => ({ route: p.route, problems: p.problems.filter((x) => x !== 'no described 2xx response') }))
      .filter((p) => p.problems.length > 0),
    /** routes whose success answer is not described yet */
    undescribed: problems
      .filter((p) => p.problems.includes('no described 2xx response'))
      .map((p) => p.route)
      .sort(),
  };
}

/**
 * The test every service runs on its OpenAPI document (issue 45 §1): every route describes its success answer,
 * the errors every route answers and how it is called, except the routes of `undescribed` (method and path),
 * a list that may only shrink (see openApiGaps).
 */
export function describeOpenApiDocument(service: string, srcDir: string, undescribed: readonly string[] = []): void {
  describe(`${service} OpenAPI document`, () => {
    it('describes every route: its success answer, the errors every route answers, how it is called', async () => {
      const { doc, close } = await openApiDocumentOf(srcDir, service);
      try {
        const gaps = openApiGaps(doc, openApiProblems);
        expect(gaps.incomplete).toEqual([]);
        expect(gaps.undescribed).toEqual([...undescribed].sort());
      } finally {
        await close();
      }
    });
  });
}
