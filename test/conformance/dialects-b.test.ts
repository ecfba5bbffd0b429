/** The whole suite against the second half of the reference-server dialects (test/conformance/support/dialect-cells.ts). */
import { DIALECT_NAMES } from '../../src/reference/index.js';
import { describeDialects } from './support/dialect-cells.js';

describeDialects(DIALECT_NAMES.slice(Math.ceil(DIALECT_NAMES.length / 2)));
