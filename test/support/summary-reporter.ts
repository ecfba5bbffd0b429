/**
 * Prints every skipped test with its reason, then the plain closing line CI reads: "tests: N passed,
 * N failed, N skipped". The default reporter shows skip reasons only in verbose mode, and a skip (a missing
 * optional package, test/support/optional.ts) must be visible in every `npm test`.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    const skipped: string[] = [];
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const r = t.result();
        if (r.state === 'passed') passed++;
        else if (r.state === 'failed') failed++;
        else skipped.push(`skipped: ${m.relativeModuleId} > ${t.fullName}: ${(r.state === 'skipped' && r.note) || 'no reason given'}`);
      }
    }
    const lines = skipped.length > 0 ? `\n${skipped.join('\n')}\n` : '';
    process.stdout.write(`${lines}\ntests: ${passed} passed, ${failed} failed, ${skipped.length} skipped\n`);
  }
}
