#!/usr/bin/env node
// The success answers' schemas of a service's routes, read from the TypeScript its controllers return:
//
//   node scripts/openapi-answers.mjs services/<name>      (run by the service's build, after tsc)
//
// Each controller method (a class decorated @Controller) with an HTTP decorator answers a type (its Promise awaited); that type, written as the
// checker names it, becomes `<Controller>_<method>` in a generated module beside the sources, and ts-json-schema-
// generator makes JSON schemas of them. Written to dist/openapi-answers.json: { operations: { operationId: schema
// name }, schemas }, which the service's OpenAPI document takes (libs/server-kit openapi-answers.ts). A route whose
// type names something the module cannot import (a type of the service's own that is not exported from
// @wa/contracts) keeps its description only, and is listed on stderr.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createGenerator } from 'ts-json-schema-generator';
import ts from 'typescript';

const serviceDir = resolve(process.argv[2] ?? '.');
const srcDir = join(serviceDir, 'src');
const tsconfig = join(serviceDir, 'tsconfig.json');
const outFile = join(serviceDir, 'dist', 'openapi-answers.json');
const moduleFile = join(srcDir, '.openapi-answers.ts');
const HTTP = new Set(['Get', 'Post', 'Put', 'Patch', 'Delete']);
const started = Date.now();

const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
if (!parsed) throw new Error(`cannot read ${tsconfig}`);
// controllers live in `*.controller.ts` and in a module's own file (helps.ts, chats.ts…): every source is looked at
const sources = parsed.fileNames.filter((f) => !/\.(spec|int-spec|e2e-spec)\.ts$/.test(f) && !f.endsWith('.openapi-answers.ts'));
const program = ts.createProgram({ rootNames: sources, options: parsed.options });
const checker = program.getTypeChecker();
const decoratorNames = (node) =>
  (ts.canHaveDecorators(node) ? (ts.getDecorators(node) ?? []) : []).map((d) =>
    ts.isCallExpression(d.expression) && ts.isIdentifier(d.expression.expression) ? d.expression.expression.text : '',
  );

/** operationId → the answer's type as the checker writes it */
const answers = new Map();
for (const sf of program.getSourceFiles()) {
  if (!sources.includes(sf.fileName)) continue;
  for (const node of sf.statements) {
    if (!ts.isClassDeclaration(node) || !node.name || !decoratorNames(node).includes('Controller')) continue;
    for (const m of node.members) {
      if (!ts.isMethodDeclaration(m) || !ts.isIdentifier(m.name) || !decoratorNames(m).some((d) => HTTP.has(d))) continue;
      const signature = checker.getSignatureFromDeclaration(m);
      if (!signature) continue;
      const returned = checker.getReturnTypeOfSignature(signature);
      const type = checker.getAwaitedType(returned) ?? returned;
      if (type.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never))
        continue;
      const text = checker.typeToString(
        type,
        undefined,
        ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope,
      );
      answers.set(`${node.name.text}_${m.name.text}`, text);
    }
  }
}

/** The generated module: every name the answers use imported from @wa/contracts; those it does not export are dropped. */
function moduleText(entries, names) {
  const imports = names.length ? `import type { ${names.join(', ')} } from '@wa/contracts';\n` : '';
  return `${imports}${[...entries].map(([id, text]) => `export type ${id} = ${text};`).join('\n')}\n`;
}
const BUILTIN = new Set(['Array', 'Record', 'Partial', 'Pick', 'Omit', 'Readonly', 'ReadonlyArray', 'Date', 'Buffer', 'Promise']);
let entries = new Map(answers);
let names = [...new Set([...entries.values()].flatMap((t) => t.match(/\b[A-Z][A-Za-z0-9_]*\b/g) ?? []))].filter((n) => !BUILTIN.has(n));
const dropped = [];
try {
  for (let round = 0; round < 3; round++) {
    writeFileSync(moduleFile, moduleText(entries, names));
    const check = ts.createProgram({ rootNames: [moduleFile], options: { ...parsed.options, noEmit: true } });
    const errors = ts.getPreEmitDiagnostics(check, check.getSourceFile(moduleFile)).filter((d) => d.file?.fileName === moduleFile);
    if (errors.length === 0) break;
    const text = check.getSourceFile(moduleFile).text;
    const badNames = new Set();
    for (const e of errors) {
      const line = text.slice(text.lastIndexOf('\n', e.start) + 1, text.indexOf('\n', e.start));
      const alias = /^export type (\w+) =/.exec(line)?.[1];
      if (alias) {
        entries.delete(alias);
        dropped.push(alias);
      } else badNames.add(text.slice(e.start, e.start + e.length));
    }
    names = names.filter((n) => !badNames.has(n));
    // an answer that used a name not exported from @wa/contracts cannot be written here
    for (const [id, t] of entries)
      if ((t.match(/\b[A-Z][A-Za-z0-9_]*\b/g) ?? []).some((n) => badNames.has(n))) {
        entries.delete(id);
        dropped.push(id);
      }
  }
  writeFileSync(moduleFile, moduleText(entries, names));
  const generator = createGenerator({
    path: moduleFile,
    tsconfig,
    type: '*',
    expose: 'export',
    topRef: true,
    jsDoc: 'basic',
    skipTypeCheck: true,
    additionalProperties: true,
  });
  const schemas = {};
  const operations = {};
  for (const id of entries.keys()) {
    let made;
    try {
      made = generator.createSchema(id);
    } catch (err) {
      dropped.push(`${id} (${String(err?.message ?? err).split('\n')[0]})`);
      continue;
    }
    const definitions = made.definitions ?? {};
    // the answer itself: its alias's definition (a named type's $ref, or the object written inline)
    const root = definitions[id] ?? made;
    delete definitions[id];
    Object.assign(schemas, definitions);
    const { $schema: _, definitions: __, ...answer } = root;
    operations[id] = answer;
  }
  const refs = (value) => JSON.parse(JSON.stringify(value).replaceAll('#/definitions/', '#/components/schemas/'));
  mkdirSync(join(serviceDir, 'dist'), { recursive: true });
  writeFileSync(outFile, JSON.stringify({ operations: refs(operations), schemas: refs(schemas) }));
  process.stderr.write(
    `openapi-answers: ${Object.keys(operations).length} of ${answers.size} answers described (${Date.now() - started} ms)` +
      (dropped.length ? `; description only: ${dropped.join(', ')}` : '') +
      '\n',
  );
} finally {
  rmSync(moduleFile, { force: true });
}
