import { jestConfig } from '../jest.preset.js';

// the long-outage test (three one-minute outages, mostly waiting) runs on its own target, `e2e:test-outage`:
// `npm test` runs it beside the web's unit tests, which use no server, instead of after everything else
export const OUTAGE_SPEC = 'outage.e2e-spec.ts';

export default jestConfig(import.meta.dirname, {
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', `/${OUTAGE_SPEC.replace(/\./g, '\\.')}$`],
  testTimeout: 60000,
});
