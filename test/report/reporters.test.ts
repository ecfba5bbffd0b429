import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chartsForResults } from '../../src/report/charts/index.js';
import { parseFormats, runReporters, type Reporter } from '../../src/report/reporter.js';
import { renderReports } from '../../src/report/index.js';
import { jsonReporter } from '../../src/report/json.js';
import { markdownReporter } from '../../src/report/markdown.js';
import { need, pngPart } from '../support/optional.js';
import { makeResults } from './fixtures.js';

const pngHere = await pngPart();
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('reporters', () => {
  it('a crashing reporter is isolated: the others still write and the failure is one line', async () => {
    const out = await mkdtemp(join(tmpdir(), 'spgate-rep-'));
    const boom: Reporter = { name: 'html', render: () => Promise.reject(new Error('kaboom\nstack line')) };
    const s = await runReporters(makeResults(), out, [jsonReporter, boom, markdownReporter]);
    expect(s.outcomes.map((o) => o.status)).toEqual(['written', 'failed', 'written']);
    expect(s.outcomes[1]).toEqual({ reporter: 'html', status: 'failed', message: 'kaboom' });
    expect((await readdir(out)).sort()).toEqual(['results.json', 'summary.md']);
  });

  it('renders every format; the page carries every chart with or without PNG support', async () => {
    const out = await mkdtemp(join(tmpdir(), 'spgate-rep-'));
    const results = makeResults();
    const s = await renderReports(results, out);
    expect(s.outcomes.every((o) => o.status === 'written')).toBe(true);
    const files = await readdir(out);
    for (const f of ['index.html', 'junit.xml', 'summary.md', 'results.json']) expect(files).toContain(f);
    // The page draws its charts in the browser, so it needs no PNG renderer.
    const html = await readFile(join(out, 'index.html'), 'utf8');
    const charts = chartsForResults(results).flat();
    expect(charts).toHaveLength(10);
    for (const c of charts) expect(html).toContain(`id="chart-${c.id}"`);
    if (pngHere.missing) {
      // Without the renderer: no PNG, one note saying why, and a summary that links none.
      expect(files.filter((f) => f.endsWith('.png'))).toEqual([]);
      expect(s.notes.join()).toMatch(/PNG charts skipped: chartjs-node-canvas is unavailable/);
      expect(await readFile(join(out, 'summary.md'), 'utf8')).not.toContain('.png');
    }
  });

  it('writes one PNG per chart; the step summary links none (GitHub cannot resolve a relative image)', async (ctx) => {
    need(ctx, pngHere);
    const out = await mkdtemp(join(tmpdir(), 'spgate-rep-'));
    const results = makeResults();
    const s = await renderReports(results, out);
    expect(s.notes).toEqual([]);
    const expected = chartsForResults(results)
      .flat()
      .map((c) => `chart-${c.id}.png`)
      .sort();
    expect(expected).toHaveLength(10);
    expect((await readdir(out)).filter((f) => f.endsWith('.png')).sort()).toEqual(expected);
    const summary = await readFile(join(out, 'summary.md'), 'utf8');
    for (const name of expected) {
      const buf = await readFile(join(out, name));
      expect(buf.subarray(0, 8).equals(PNG_SIGNATURE), `${name} is not a PNG`).toBe(true);
      expect(buf.length, `${name} is nearly empty`).toBeGreaterThan(5000);
      expect(summary).not.toContain(name);
    }
  });

  it('parses --format lists with aliases and rejects unknown names', () => {
    expect(parseFormats('markdown,html,md', ['json'])).toEqual({ formats: ['html', 'markdown'], unknown: [] });
    expect(parseFormats(['junit', 'pdf'], ['json'])).toEqual({ formats: ['junit'], unknown: ['pdf'] });
    expect(parseFormats(undefined, ['json']).formats).toEqual(['json']);
  });
});
