import { jestConfig } from '../jest.preset.js';

export default jestConfig(import.meta.dirname, { testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'], testTimeout: 60000 });
