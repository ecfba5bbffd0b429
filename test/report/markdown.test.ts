import { describe, expect, it } from 'vitest';
import { buildMarkdown } from '../../src/report/markdown.js';
import { makeResults } from './fixtures.js';

describe('Markdown summary', () => {
  it('has the verdict, counts, failing clauses, load figures, PNGs and the HTML link, with no raw HTML', () => {
    const r = makeResults();
    const md = buildMarkdown(r, { htmlHref: 'index.html', pngs: new Map([['1-read-budget-throughput', 'chart-1-read-budget-throughput.png']]), maxRows: 5 });
    expect(md).toMatch(/^## spgate: ❌ \*\*failed\*\*/);
    expect(md).toContain(`| ${r.checks.length} | ${r.checks.filter((c) => c.status === 'passed').length} |`);
    expect(md).toContain('### Failing clauses');
    const errors = r.findings.filter((f) => f.severity === 'error').length;
    expect(md).toContain(`…and ${errors - 5} more in the full report.`);
    expect(md).toContain('| read-budget | failed |');
    expect(md).toContain('![read-budget: throughput](chart-1-read-budget-throughput.png)');
    expect(md).toContain('[Full HTML report](index.html)');
    expect(md).not.toMatch(/<(img|script|svg)/i);
    // Every table row has the same number of unescaped cell separators as its header.
    for (const line of md.split('\n').filter((l) => l.startsWith('| '))) {
      const cells = line.replace(/\\\|/g, '').split('|').length;
      expect([10 + 2, 5 + 2, 11 + 2]).toContain(cells);
    }
  });

  it('says passed for a clean run and leaves out the failing table', () => {
    const md = buildMarkdown(makeResults({ clean: true }));
    expect(md).toMatch(/✅ \*\*passed\*\*/);
    expect(md).not.toContain('Failing clauses');
    expect(md).not.toContain('Full HTML report');
  });
});
