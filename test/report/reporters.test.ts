import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFormats, runReporters, type Reporter } from '../../src/report/reporter.js';
import { renderReports } from '../../src/report/index.js';
import { jsonReporter } from '../../src/report/json.js';
import { markdownReporter } from '../../src/report/markdown.js';
import { makeResults } from './fixtures.js';

describe('reporters', () => {
  it('a crashing reporter is isolated: the others still write and the failure is one line', async () => {
    const out = await mkdtemp(join(tmpdir(), 'spgate-rep-'));
    const boom: Reporter = { name: 'html', render: () => Promise.reject(new Error('kaboom\nstack line')) };
    const s = await runReporters(makeResults(), out, [jsonReporter, boom, markdownReporter]);
    expect(s.outcomes.map((o) => o.status)).toEqual(['written', 'failed', 'written']);
    expect(s.outcomes[1]).toEqual({ reporter: 'html', status: 'failed', message: 'kaboom' });
    expect((await readdir(out)).sort()).toEqual(['results.json', 'summary.md']);
  });

  it('renders every format, PNGs first so the summary links them', async () => {
    const out = await mkdtemp(join(tmpdir(), 'spgate-rep-'));
    const s = await renderReports(makeResults(), out);
    expect(s.outcomes.every((o) => o.status === 'written')).toBe(true);
    const files = await readdir(out);
    for (const f of ['index.html', 'junit.xml', 'summary.md', 'results.json']) expect(files).toContain(f);
    const pngs = files.filter((f) => f.endsWith('.png'));
    // Native canvas is built on this machine; elsewhere the reporter writes none and leaves a note.
    if (pngs.length === 0) expect(s.notes.join()).toMatch(/PNG charts skipped/);
    else expect(pngs).toHaveLength(10);
  });

  it('parses --format lists with aliases and rejects unknown names', () => {
    expect(parseFormats('markdown,html,md', ['json'])).toEqual({ formats: ['html', 'markdown'], unknown: [] });
    expect(parseFormats(['junit', 'pdf'], ['json'])).toEqual({ formats: ['junit'], unknown: ['pdf'] });
    expect(parseFormats(undefined, ['json']).formats).toEqual(['json']);
  });
});
