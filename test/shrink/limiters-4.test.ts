/** spgate shrink end to end against misconfigured limiters: the cases of file 4 (test/shrink/support/limiter-cases.ts). */
import { describeLimiterFile } from './support/limiter-cases.js';

describeLimiterFile(4);
