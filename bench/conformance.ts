/**
 * Wall time of a full `spgate conformance` (every suite, default runs) against the embedded reference
 * server, in-process. Issue target: ≤ 60 s on a 2-core machine.
 */
import { startReferenceServer } from '../src/reference/index.js';
import { targetFromInput } from '../src/target/load.js';
import { runConformance } from '../src/conformance/run.js';
import { SUITES } from '../suites/index.js';

/** Runs the whole conformance gate once and reports its duration and size. */
export async function bench(): Promise<Record<string, number>> {
  const server = await startReferenceServer({ port: 0, seed: 1 });
  try {
    const target = targetFromInput(server.target, 'embedded');
    const started = performance.now();
    const out = await runConformance({ target, catalogue: SUITES, runs: 25, seed: 1 });
    const seconds = (performance.now() - started) / 1000;
    const requests = out.checks.reduce((n, c) => n + c.cases, 0);
    console.log(`conformance: ${out.checks.length} checks, ${out.findings.length} findings, ${requests} cases in ${seconds.toFixed(1)} s`);
    return { conformanceSeconds: seconds, conformanceChecks: out.checks.length, conformanceFindings: out.findings.length };
  } finally {
    await server.close();
  }
}
