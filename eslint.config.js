import nx from '@nx/eslint-plugin';
import jsoncParser from 'jsonc-eslint-parser';
import sqlHomes from './scripts/lint/sql-homes.js';

export default [
  { ignores: ['**/dist/**', '**/node_modules/**', 'reports/**', '.nx/**', 'web/dist/**'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      // services depend on libs, never on each other; the web app only on contracts
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          // the root's test helper for a library's tests that run its build in a child process (scripts/lib/built-lib.mjs)
          allow: ['../../../scripts/lib/built-lib.mjs'],
          depConstraints: [
            { sourceTag: 'scope:service', onlyDependOnLibsWithTags: ['scope:lib', 'scope:contracts'] },
            { sourceTag: 'scope:lib', onlyDependOnLibsWithTags: ['scope:lib', 'scope:contracts'] },
            { sourceTag: 'scope:contracts', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'scope:web', onlyDependOnLibsWithTags: ['scope:contracts'] },
            { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['scope:lib', 'scope:contracts', 'scope:service'] },
          ],
        },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      // env classes need explicit property types: decorator metadata drives type conversion
      '@typescript-eslint/no-inferrable-types': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      'no-console': 'error',
    },
  },
  {
    // SQL text lives only in *.repository.ts and *.queries.ts files (migrations and tests aside): STYLE, "SQL in named homes"
    files: ['services/**/*.ts', 'libs/**/*.ts'],
    plugins: { conversa: { rules: { 'sql-homes': sqlHomes } } },
    rules: { 'conversa/sql-homes': 'error' },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/test/**/*.ts'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-empty-function': 'off' },
  },
  {
    // end-to-end tests drive the whole system and may use a service's own seed helpers
    files: ['e2e/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    // each workspace declares the packages its production code imports (test-only ones are devDependencies):
    // a service image installs exactly these (deploy/Dockerfile: npm ci --omit=dev --workspace)
    files: ['**/package.json'],
    languageOptions: { parser: jsoncParser },
    rules: {
      '@nx/dependency-checks': [
        'error',
        {
          buildTargets: ['build'],
          checkMissingDependencies: true,
          checkObsoleteDependencies: true,
          checkVersionMismatches: true,
          includeTransitiveDependencies: false,
          ignoredFiles: [
            '{projectRoot}/**/test/**',
            '{projectRoot}/**/__tests__/**',
            '{projectRoot}/**/*.spec.ts',
            '{projectRoot}/**/*.test.tsx',
            '{projectRoot}/jest.config.js',
            '{projectRoot}/vite.config.ts',
          ],
          // needed at run time without an import: TypeORM loads pg, Nest and nestjs-pino need their peers, Chakra needs
          // emotion; @jest/globals is the test runner's (root devDependencies), never a workspace's, so no image holds it
          ignoredDependencies: ['pg', 'pino', 'pino-http', 'rxjs', 'passport', '@emotion/react', '@jest/globals'],
        },
      ],
    },
  },
];
