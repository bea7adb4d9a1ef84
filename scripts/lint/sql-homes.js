/**
 * ESLint rule `conversa/sql-homes`: SQL text lives only in `*.repository.ts` and `*.queries.ts` files (and in
 * migrations and tests), so every statement a service runs can be found by its file name and read in one place.
 * It flags string and template literals that read as an SQL statement or clause, and TypeORM query builders.
 */
const STATEMENT =
  /^\s*(?:select\s[\s\S]*?\bfrom\s|select\s+(?:\$|\d|exists|count|pg_|now\(|1\b|[a-z_]+\s*\()|insert\s+into\s|update\s+(?:only\s+)?[\w."]+(?:\s+(?:as\s+)?(?!set\b)\w+)?\s+set\s|delete\s+from\s|with\s+(?:recursive\s+)?[\w"]+(?:\s*\([^)]*\))?\s+as\s*(?:materialized\s*|not\s+materialized\s*)?\(|create\s+(?:or\s+replace\s+|unique\s+)?(?:table|index|function|view|trigger|type|extension|schema|sequence)\s|alter\s+(?:table|function|type|sequence)\s|drop\s+(?:table|index|function|view|trigger|type|schema)\s|truncate\s|lock\s+table\s|call\s+\w)/i;
// clauses glued onto a statement elsewhere: upper-case keywords only, so ordinary prose is not taken for SQL
const CLAUSE =
  /^\s*(?:WHERE|AND|OR|ORDER BY|GROUP BY|HAVING|LIMIT|OFFSET|(?:LEFT |INNER |RIGHT |FULL |CROSS )?JOIN|ON CONFLICT|RETURNING|SET|VALUES|FROM|UNION(?: ALL)?)\s[\s\S]*(?:\$\d|\b[a-z_]+\.[a-z_]+\b|=|\bIS\b|\bIN\b|\bNOT\b|\bDESC\b|\bASC\b)/;
const HOME = /(?:\.repository|\.queries)\.ts$|\/migrations\/|\/test\/|\.(?:spec|int-spec|e2e-spec)\.ts$/;

function textOf(node) {
  if (node.type === 'Literal') return typeof node.value === 'string' ? node.value : undefined;
  return node.quasis.map((q) => q.value.cooked ?? q.value.raw).join('$0');
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'SQL text only in *.repository.ts and *.queries.ts files' },
    schema: [],
    messages: {
      sql: 'SQL text belongs in a *.repository.ts or *.queries.ts file (STYLE: "SQL in named homes").',
      builder: 'Query builders belong in a *.repository.ts or *.queries.ts file (STYLE: "SQL in named homes").',
    },
  },
  create(context) {
    const file = (context.filename ?? context.getFilename()).replace(/\\/g, '/');
    if (HOME.test(file)) return {};
    const check = (node) => {
      if (node.parent?.type === 'TaggedTemplateExpression' && node.parent.quasi === node) return check(node.parent);
      const text = textOf(node.type === 'TaggedTemplateExpression' ? node.quasi : node);
      if (text !== undefined && (STATEMENT.test(text) || CLAUSE.test(text))) context.report({ node, messageId: 'sql' });
    };
    return {
      Literal: (node) => {
        if (
          node.parent?.type === 'ImportDeclaration' ||
          node.parent?.type === 'ExportNamedDeclaration' ||
          node.parent?.type === 'ExportAllDeclaration'
        )
          return;
        check(node);
      },
      TemplateLiteral: (node) => check(node),
      'CallExpression > MemberExpression.callee > Identifier.property[name="createQueryBuilder"]': (node) =>
        context.report({ node, messageId: 'builder' }),
    };
  },
};
