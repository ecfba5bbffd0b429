import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mergeShardFiles } from '../../src/distributed/merge-files.js';
import { writeResults } from '../../src/results/io.js';
import { Results } from '../../src/results/schema.js';
import { limiterTraces, writeShard } from './support/synthetic.js';

/** Two synthetic shards whose results are edited by `edit` (thresholds, drops, config) before merging. */
async function mergeEdited(edit: (doc: Results, index: number) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'spgate-thresholds-'));
  const traces = limiterTraces('shared', 2);
  const paths = await Promise.all(traces.map((recs, i) => writeShard(dir, i, 2, recs)));
  for (const [i, p] of paths.entries()) {
    const doc = Results.parse(JSON.parse(readFileSync(p, 'utf8')));
    edit(doc, i);
    await writeResults(p, doc);
  }
  return { traces, merged: await mergeShardFiles({ paths }) };
}

const outcome = (m: Awaited<ReturnType<typeof mergeEdited>>['merged'], expression: string) =>
  m.result.thresholds.find((t) => t.expression === expression);

describe('thresholds are judged on the merged run, not per shard', () => {
  it('a count that no shard breaches alone can be breached by the whole run', async () => {
    const { traces, merged } = await mergeEdited((doc) => {
      doc.load[0]!.thresholds.push({ expression: 'completed < 100', ok: true, actual: 'per shard' });
    });
    const total = traces.flat().length;
    for (const t of traces) expect(t.length).toBeLessThan(100);
    expect(total).toBeGreaterThanOrEqual(100);
    expect(outcome(merged, 'completed < 100')).toEqual({ expression: 'completed < 100', ok: false, actual: String(total) });
    expect(merged.result.status).toBe('failed');
  });

  it('latency thresholds use the merged histogram', async () => {
    const { merged } = await mergeEdited((doc) => {
      doc.load[0]!.thresholds.push({ expression: 'p99 < 3ms', ok: true, actual: '' }, { expression: 'max > 3ms', ok: true, actual: '' });
    });
    // Every synthetic response took 2 ms.
    expect(outcome(merged, 'p99 < 3ms')!.ok).toBe(true);
    expect(outcome(merged, 'max > 3ms')).toEqual({ expression: 'max > 3ms', ok: false, actual: '2ms' });
  });

  it("class-narrowed drops of a two-class run add the shards' own counts", async () => {
    const { merged } = await mergeEdited((doc, i) => {
      const p = doc.load[0]!;
      (p.config.classes as Array<Record<string, unknown>>).push({ class: 'write', routes: [{ method: 'POST', path: '/x' }] });
      p.totals.dropped = 7;
      p.thresholds.push({ expression: 'read.dropped == 0', ok: i === 0, actual: String(i * 3) });
    });
    expect(outcome(merged, 'read.dropped == 0')).toEqual({ expression: 'read.dropped == 0', ok: false, actual: '3' });
    expect(merged.result.totals.dropped).toBe(14);
  });

  it('a class-narrowed drop count a shard did not record is reported as unknown, never guessed', async () => {
    const { merged } = await mergeEdited((doc, i) => {
      const p = doc.load[0]!;
      (p.config.classes as Array<Record<string, unknown>>).push({ class: 'write', routes: [{ method: 'POST', path: '/x' }] });
      p.thresholds.push({ expression: 'write.dropped == 0', ok: true, actual: i === 0 ? '0' : 'n/a' });
    });
    expect(outcome(merged, 'write.dropped == 0')!.actual).toContain('not known across shards');
  });
});
