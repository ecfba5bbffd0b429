import { describe, expect, it } from 'vitest';
import { buildJunit } from '../../src/report/junit.js';
import { makeResults, HOSTILE } from './fixtures.js';
import { parseXml, type XmlElement } from './xml.js';

const all = (el: XmlElement, name: string): XmlElement[] => [
  ...(el.name === name ? [el] : []),
  ...el.children.flatMap((c) => all(c, name)),
];

describe('JUnit reporter', () => {
  const results = makeResults();
  const xml = buildJunit(results);
  const root = parseXml(xml);

  it('is a well-formed testsuites document whose totals match its testcases', () => {
    expect(root.name).toBe('testsuites');
    const cases = all(root, 'testcase');
    expect(Number(root.attrs.tests)).toBe(cases.length);
    expect(Number(root.attrs.failures)).toBe(cases.filter((c) => c.children.some((x) => x.name === 'failure')).length);
    expect(Number(root.attrs.errors)).toBe(cases.filter((c) => c.children.some((x) => x.name === 'error')).length);
    expect(Number(root.attrs.skipped)).toBe(cases.filter((c) => c.children.some((x) => x.name === 'skipped')).length);
    for (const s of root.children) {
      expect(s.name).toBe('testsuite');
      expect(Number(s.attrs.tests)).toBe(s.children.length);
      expect(s.attrs.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      // A load suite's time is its profile's wall time, not the sum of its (instant) threshold cases.
      const p = results.load.find((x) => `load.${x.name}` === s.attrs.name);
      if (p) expect(Number(s.attrs.time)).toBeCloseTo(p.durationMs / 1000, 3);
    }
  });

  it('has one testcase per check, with failures naming clause, expected and actual', () => {
    const conf = root.children.filter((s) => s.attrs.name!.startsWith('conformance.'));
    expect(conf.flatMap((s) => s.children)).toHaveLength(results.checks.length);
    const failed = results.checks.find((c) => c.status === 'failed')!;
    const tc = all(root, 'testcase').find((c) => c.attrs.name!.includes(failed.checkId))!;
    const failure = tc.children.find((c) => c.name === 'failure')!;
    expect(failure.attrs.type).toBe(failed.clause);
    expect(failure.text).toContain(`clause: `);
    expect(failure.text).toContain('expected HTTP 400');
    // Hostile text round-trips as text, not markup.
    expect(failure.text).toContain(HOSTILE);
    const skipped = results.checks.find((c) => c.status === 'skipped')!;
    const sk = all(root, 'testcase').find((c) => c.attrs.name!.includes(skipped.checkId))!;
    expect(sk.children[0]!.name).toBe('skipped');
    const warned = results.checks.find((c) => c.status === 'warned')!;
    const w = all(root, 'testcase').find((c) => c.attrs.name!.includes(warned.checkId))!;
    expect(w.children.map((c) => c.name)).toEqual(['system-out']);
  });

  it('has a testcase per threshold and per rate-limit class, failing where breached or violated', () => {
    const p = results.load[0]!;
    const suite = root.children.find((s) => s.attrs.name === `load.${p.name}`)!;
    const names = suite.children.map((c) => c.attrs.name);
    for (const t of p.thresholds) expect(names).toContain(`threshold ${t.expression}`);
    expect(names).toContain('rate limit (read)');
    expect(names).toContain('rate limit (all classes)');
    const breached = suite.children.find((c) => c.attrs.name === 'threshold errors == 0')!;
    expect(breached.children[0]!.name).toBe('failure');
    const rl = suite.children.find((c) => c.attrs.name === 'rate limit (read)')!;
    expect(rl.children[0]!.attrs.type).toBe('8.ratelimit.over-admission');
  });

  it('replaces characters XML forbids instead of emitting them', () => {
    const r = makeResults();
    r.findings[0]!.actual = 'bell\u0007 nul\u0000 lone\uD800 ok';
    r.checks[0]!.title = 'ti\u001Ftle "quoted" \'single\' <tag> &';
    const doc = buildJunit(r);
    const parsed = parseXml(doc);
    expect(JSON.stringify(parsed)).toContain('bell\uFFFD nul\uFFFD lone\uFFFD ok');
    expect(all(parsed, 'testcase')[0]!.attrs.name).toContain('ti\uFFFDtle "quoted" \'single\' <tag> &');
  });

  it('reports an aborted run as an error testcase', () => {
    const r = { ...makeResults({ clean: true }), meta: { ...makeResults({ clean: true }).meta, aborted: true, abortReason: 'SIGINT' } };
    const parsed = parseXml(buildJunit(r));
    const spgate = parsed.children.find((s) => s.attrs.name === 'spgate')!;
    expect(spgate.children[0]!.children[0]!.name).toBe('error');
    expect(spgate.children[0]!.children[0]!.attrs.message).toBe('SIGINT');
  });
});
