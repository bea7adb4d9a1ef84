// Unit and component tests of the web app: jsdom, TypeScript and JSX through swc, ES modules.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export default {
  rootDir: here,
  testEnvironment: '<rootDir>/src/test/jsdom-env.js',
  testMatch: ['<rootDir>/src/**/__tests__/**/*.test.ts', '<rootDir>/src/**/__tests__/**/*.test.tsx'],
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  moduleNameMapper: {
    '^@wa/contracts$': join(here, '../libs/contracts/src/index.ts'),
    // the contracts import each other with .js suffixes
    '^(\\.{1,2}/.*)\\.js$': '$1',
    '\\.(css|less|svg|png|jpg|jpeg|gif|webp)$': join(here, 'src/test/asset-stub.js'),
  },
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic' } },
          target: 'es2022',
        },
        module: { type: 'es6' },
        sourceMaps: 'inline',
      },
    ],
  },
  transformIgnorePatterns: ['/node_modules/'],
  setupFiles: ['<rootDir>/src/test/setup.ts'],
  testTimeout: 15000,
};
