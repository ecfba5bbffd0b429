import { describe, expect, it } from 'vitest';
import { groupFindings } from '../../src/report/failures.js';
import { renderHtml } from '../../src/report/html/page.js';
import { makeResults, HOSTILE } from './fixtures.js';

describe('HTML report', () => {
  const r = makeResults();
  const page = renderHtml(r);

  it('never contains server-provided markup unescaped', () => {
    // The only raw <img or <svg would be an injection: the page itself uses neither.
    expect(page).not.toMatch(/<img\b/i);
    expect(page).not.toMatch(/<svg\b/i);
    expect(page.split('</script>').length - 1).toBe(page.split('<script').length - 1);
    expect(page).toContain('&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
  });

  it('is self-contained: no external script, stylesheet or image references', () => {
    expect(page).not.toMatch(/<script[^>]+src=/i);
    expect(page).not.toMatch(/<link\b/i);
    expect(page).not.toMatch(/\burl\(\s*['"]?https?:/i);
    expect(page).toContain('Chart.js v4');
  });

  it('embeds chart specs that parse back, with hostile text intact as data', () => {
    const m = /<script id="spgate-charts" type="application\/json">([^<]*)<\/script>/.exec(page);
    expect(m).not.toBeNull();
    const specs = JSON.parse(m![1]!) as Array<{ id: string; title: string }>;
    expect(specs.map((s) => s.id)).toContain('1-read-budget-ratelimit');
    for (const s of specs) expect(page).toContain(`id="chart-${s.id}"`);
    const withHostileName = renderHtml({ ...r, load: [{ ...r.load[0]!, name: HOSTILE }] });
    const m2 = /<script id="spgate-charts" type="application\/json">([^<]*)<\/script>/.exec(withHostileName)!;
    expect((JSON.parse(m2[1]!) as Array<{ title: string }>)[0]!.title).toContain(HOSTILE);
  });

  it('has the verdict banner, the matrix grouped by spec part, findings, profiles and environment', () => {
    expect(page).toContain('<header class="banner failed"');
    expect(page).toContain('Part 4 — Endpoints');
    expect(page).toContain('Part 8 — Limits');
    // One block per check, with a count when it broke more than once (not N identical blocks).
    const groups = groupFindings(r.findings);
    expect((page.match(/<details class="finding /g) ?? []).length).toBe(groups.length);
    for (const g of groups.filter((x) => x.count > 1)) expect(page).toContain(`<span class="badge">×${g.count}</span>`);
    expect(page).toContain('Load: read-budget');
    expect(page).toContain('Rate-limit analysis');
    expect(page).toContain('8.ratelimit.over-admission');
    expect(page).toContain('breached');
    expect(page).toContain('Run environment');
    for (const c of r.checks) expect(page).toContain(`data-clause="${c.clause}"`);
  });
});
