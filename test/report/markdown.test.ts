import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { buildMarkdown, runPageUrl } from '../../src/report/markdown.js';
import { groupFindings } from '../../src/report/failures.js';
import { makeResults } from './fixtures.js';

/** The links and images of Markdown as GitHub renders it (GitHub-flavoured: tables, autolinks). */
function rendered(md: string): { html: string; hrefs: string[]; images: string[] } {
  const html = marked.parse(md, { gfm: true, async: false });
  return {
    html,
    hrefs: [...html.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1]!),
    images: [...html.matchAll(/<img [^>]*src="([^"]*)"/g)].map((m) => m[1]!),
  };
}

describe('Markdown summary', () => {
  it('has the verdict, counts, failing checks grouped with a count, load figures and thresholds, with no raw HTML', () => {
    const r = makeResults();
    const md = buildMarkdown(r, { maxRows: 5 });
    expect(md).toMatch(/^## spgate: ❌ \*\*failed\*\*/);
    expect(md).toContain(`| ${r.checks.length} | ${r.checks.filter((c) => c.status === 'passed').length} |`);
    expect(md).toContain('### Failing checks');
    const groups = groupFindings(r.findings.filter((f) => f.severity === 'error')).length;
    if (groups > 5) expect(md).toContain(`…and ${groups - 5} more checks in the full report.`);
    expect(md).toContain('| read-budget | failed |');
    for (const t of r.load.flatMap((p) => p.thresholds)) expect(md).toContain(t.ok ? '- ✓ ' : '- ✗ ');
    expect(md).not.toMatch(/<(img|script|svg)/i);
    // Every table row has the same number of unescaped cell separators as its header.
    for (const line of md.split('\n').filter((l) => l.startsWith('| '))) {
      const cells = line.replace(/\\\|/g, '').split('|').length;
      expect([10 + 2, 6 + 2, 11 + 2, 4 + 2]).toContain(cells);
    }
  });

  it('renders on GitHub: tables, no image, no relative link; the artifact link is the run page', () => {
    const r = makeResults();
    const runUrl = runPageUrl({ GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/api', GITHUB_RUN_ID: '4242' });
    expect(runUrl).toBe('https://github.com/acme/api/actions/runs/4242');
    const { html, hrefs, images } = rendered(buildMarkdown(r, { runUrl: runUrl! }));
    expect(html).toContain('<table>');
    expect(images).toEqual([]);
    expect(hrefs).toEqual(['https://github.com/acme/api/actions/runs/4242']);
    expect(html).toContain('<code>http://127.0.0.1:4010/v1</code>');
    // Without the runner's variables there is no link at all (a relative one would not resolve).
    expect(rendered(buildMarkdown(r)).hrefs).toEqual([]);
  });

  it('takes no run page from malformed runner variables', () => {
    expect(runPageUrl({})).toBeUndefined();
    expect(runPageUrl({ GITHUB_SERVER_URL: 'javascript:alert(1)//', GITHUB_REPOSITORY: 'a/b', GITHUB_RUN_ID: '1' })).toBeUndefined();
    expect(runPageUrl({ GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'a/b', GITHUB_RUN_ID: '1)](x' })).toBeUndefined();
  });

  it('says passed for a clean run and leaves out the failing table', () => {
    const md = buildMarkdown(makeResults({ clean: true }));
    expect(md).toMatch(/✅ \*\*passed\*\*/);
    expect(md).not.toContain('Failing checks');
  });
});
