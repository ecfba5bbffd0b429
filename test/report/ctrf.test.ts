/**
 * CTRF beside JUnit: the document validates against CTRF's published schema (the `ctrf` reference
 * implementation's validator), tells warnings and inconclusive checks apart from passes (`other` with
 * spgate's own status as rawStatus), and the shards of one distributed run merge into one report under
 * their shared run id.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validate } from 'ctrf';
import { afterAll, describe, expect, it } from 'vitest';
import { mergedResults } from '../../src/distributed/merged-results.js';
import { buildCtrf } from '../../src/report/ctrf.js';
import { renderReports } from '../../src/report/index.js';
import { mergeShardFiles } from '../../src/distributed/merge-files.js';
import type { Results } from '../../src/results/schema.js';
import { limiterTraces, writeShard } from '../distributed/support/synthetic.js';
import { makeResults } from './fixtures.js';

interface CtrfTest {
  name: string;
  status: string;
  rawStatus?: string;
  testId: string;
  message?: string;
}
const testsOf = (doc: Record<string, unknown>): CtrfTest[] => (doc.results as { tests: CtrfTest[] }).tests;

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('CTRF report', () => {
  it('validates against the CTRF schema and counts every check and threshold', () => {
    const r = makeResults();
    const doc = buildCtrf(r);
    const v = validate(doc);
    expect(v.errors ?? [], JSON.stringify(v.errors)).toEqual([]);
    expect(v.valid).toBe(true);
    expect(validate({ ...doc, reportFormat: 'JUnit' }).valid).toBe(false); // the validator does validate
    const summary = (doc.results as { summary: Record<string, number> }).summary;
    const thresholds = r.load.reduce((n, p) => n + p.thresholds.length, 0);
    expect(summary.tests).toBeGreaterThanOrEqual(r.checks.length + thresholds);
    expect(summary.passed + summary.failed + summary.skipped + summary.other).toBe(summary.tests);
  });

  it('a warning and an inconclusive check are "other" with their own status, never passed', () => {
    const r = makeResults();
    r.checks[0] = { ...r.checks[0]!, status: 'inconclusive', reason: 'one page only', remedy: 'more customers' };
    const warned = r.checks.find((c) => c.status === 'warned')!;
    const tests = testsOf(buildCtrf(r));
    const byId = (id: string) => tests.find((t) => t.name.includes(` ${id}: `))!;
    expect(byId(r.checks[0]!.checkId)).toMatchObject({
      status: 'other',
      rawStatus: 'inconclusive',
      message: 'inconclusive: one page only — to judge it: more customers',
    });
    expect(byId(warned.checkId)).toMatchObject({ status: 'other', rawStatus: 'warned' });
    // The same check keeps its test id from run to run.
    expect(testsOf(buildCtrf(makeResults({ seed: 99 })))[0]!.testId).toBe(testsOf(buildCtrf(makeResults()))[0]!.testId);
  });

  it('is written with the other reports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spgate-ctrf-'));
    dirs.push(dir);
    const out = await renderReports(makeResults(), dir, ['ctrf', 'junit']);
    expect(out.outcomes.every((o) => o.status === 'written')).toBe(true);
    expect(validate(JSON.parse(readFileSync(join(dir, 'ctrf.json'), 'utf8'))).valid).toBe(true);
  });

  it('the shards of one run merge into one report under their shared run id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spgate-ctrf-shards-'));
    dirs.push(dir);
    const [a, b] = limiterTraces('shared', 2);
    const paths = [await writeShard(dir, 0, 2, a!), await writeShard(dir, 1, 2, b!)];
    for (const p of paths) {
      const doc = JSON.parse(readFileSync(p, 'utf8')) as Results;
      doc.meta.runId = 'gha-4711';
      writeFileSync(p, JSON.stringify(doc));
    }
    const merged = mergedResults(await mergeShardFiles({ paths }), 'merge');
    expect(merged.meta.runId).toBe('gha-4711');
    const doc = buildCtrf(merged);
    expect(doc.runId).toBe('gha-4711');
    expect(validate(doc).valid).toBe(true);
    // Shards that do not share an id merge under none of theirs.
    const other = JSON.parse(readFileSync(paths[1]!, 'utf8')) as Results;
    other.meta.runId = 'gha-4712';
    writeFileSync(paths[1]!, JSON.stringify(other));
    expect(mergedResults(await mergeShardFiles({ paths }), 'merge').meta.runId).toBeUndefined();
  });
});
