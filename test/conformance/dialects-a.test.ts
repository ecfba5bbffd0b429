/**
 * The whole suite against the first half of the reference-server dialects (test/conformance/support/dialect-cells.ts;
 * the second half: dialects-b.test.ts). The rate-limit profiles against every dialect: dialects-profiles.test.ts.
 */
import { DIALECT_NAMES } from '../../src/reference/index.js';
import { describeDialects } from './support/dialect-cells.js';

describeDialects(DIALECT_NAMES.slice(0, Math.ceil(DIALECT_NAMES.length / 2)));
