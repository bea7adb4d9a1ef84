import { jestConfig } from '../jest.preset.js';
import { OUTAGE_SPEC } from './jest.config.js';

// `e2e:test-outage`: the long-outage test alone (see jest.config.js)
export default jestConfig(import.meta.dirname, { testMatch: [`<rootDir>/test/**/${OUTAGE_SPEC}`], testTimeout: 60000 });
