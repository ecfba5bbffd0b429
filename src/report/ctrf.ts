/**
 * CTRF (Common Test Report Format) JSON beside JUnit, from the same test cases (test-cases.ts): a test per
 * check, threshold and rate-limit class. spgate's own statuses that CTRF has no word for travel as
 * `rawStatus`: a warning (failed `assumed` check) and an inconclusive check are `other`, never `passed`.
 * Every shard of a distributed run carries the run's id, and `spgate merge` writes one report under it.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Results } from '../results/schema.js';
import type { Reporter } from './reporter.js';
import { testSuites, type Case } from './test-cases.js';

type CtrfStatus = 'passed' | 'failed' | 'skipped' | 'pending' | 'other';

/** The CTRF status of a case, and spgate's own where it says more. */
function statusOf(c: Case): { status: CtrfStatus; rawStatus?: string } {
  if (c.raw === 'warned' || c.raw === 'inconclusive') return { status: 'other', rawStatus: c.raw };
  switch (c.outcome.kind) {
    case 'passed':
      return { status: 'passed' };
    case 'failure':
      return { status: 'failed' };
    case 'error':
      return { status: 'failed', rawStatus: 'error' };
    case 'skipped':
      return { status: 'skipped' };
  }
}

/** A stable id from what names a test (so the same check keeps its id from run to run). */
function stableId(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The run id CTRF documents share: the results' own, else one derived from the run's start and target. */
export function ctrfRunId(r: Results): string {
  return r.meta.runId ?? stableId(r.meta.startedAt, r.meta.target.baseUrl, r.meta.command);
}

/** Builds the CTRF document of a run. */
export function buildCtrf(r: Results): Record<string, unknown> {
  const start = Date.parse(r.meta.startedAt);
  const stop = Date.parse(r.meta.finishedAt);
  const tests = testSuites(r).flatMap((s) =>
    s.cases.map((c) => {
      const { status, rawStatus } = statusOf(c);
      const o = c.outcome;
      const message = o.kind === 'passed' ? c.systemOut : o.message;
      return {
        testId: stableId(c.classname, c.name),
        name: c.name,
        status,
        ...(rawStatus ? { rawStatus } : {}),
        duration: Math.round(c.timeSeconds * 1000),
        suite: c.classname.split('.'),
        ...(message ? { message } : {}),
        ...((o.kind === 'failure' || o.kind === 'error') && o.body ? { trace: o.body } : {}),
      };
    }),
  );
  const count = (s: CtrfStatus): number => tests.filter((t) => t.status === s).length;
  return {
    reportFormat: 'CTRF',
    specVersion: '0.0.0',
    runId: ctrfRunId(r),
    timestamp: r.meta.finishedAt,
    generatedBy: `spgate ${r.meta.tool.version}`,
    results: {
      tool: { name: 'spgate', version: r.meta.tool.version },
      summary: {
        tests: tests.length,
        passed: count('passed'),
        failed: count('failed'),
        skipped: count('skipped'),
        pending: 0,
        other: count('other'),
        start,
        stop,
        duration: Math.max(0, stop - start),
      },
      tests,
      environment: ctrfEnvironment(r),
      extra: { verdict: r.verdict, target: r.meta.target.baseUrl, ...(r.meta.seed !== undefined ? { seed: r.meta.seed } : {}) },
    },
  };
}

/** CTRF's `environment`: the target, the OS (process.platform and release) and the CI build (GITHUB_*), when known. */
export function ctrfEnvironment(r: Results): Record<string, string | number> {
  const e = r.meta.environment;
  const { provider: _p, ...ci } = e.ci ?? { provider: '' };
  return {
    appName: r.meta.target.name,
    buildName: r.meta.command,
    osPlatform: e.platform,
    ...(e.osRelease ? { osRelease: e.osRelease } : {}),
    ...ci,
  };
}

export const ctrfReporter: Reporter = {
  name: 'ctrf',
  async render(results, outDir) {
    await mkdir(outDir, { recursive: true });
    const path = join(outDir, 'ctrf.json');
    await writeFile(path, JSON.stringify(buildCtrf(results), null, 2) + '\n', 'utf8');
    return [path];
  },
};
