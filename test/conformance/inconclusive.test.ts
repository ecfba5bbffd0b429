/**
 * A check that ran but could not judge is inconclusive — never passed, never failed — and every output shows
 * it apart: the terminal summary, JSON, HTML, JUnit (a skipped case saying so) and Markdown. Discarded
 * property cases (inputs the server refused that the spec does not require it to accept) are counted, and a
 * property with too few judged cases is inconclusive. --fail-on-inconclusive makes the gate require verdicts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../support/conformance.js';
import { runProperty } from '../../src/conformance/property.js';
import { inconclusive } from '../../src/conformance/inconclusive.js';
import { Recorder, runCase } from '../../src/conformance/recorder.js';
import { summaryLines } from '../../src/conformance/print.js';
import type { CheckDef } from '../../src/conformance/suite.js';
import { buildResults } from '../../src/results/build.js';
import { parseResults } from '../../src/results/io.js';
import { computeVerdict } from '../../src/results/verdict.js';
import { buildJunit } from '../../src/report/junit.js';
import { buildMarkdown } from '../../src/report/markdown.js';
import { renderHtml } from '../../src/report/html/page.js';
import { fakeClient, suite, target } from './support/fake-client.js';

const unjudged: CheckDef = {
  id: 's.one-page',
  clause: '4.4.has-more',
  title: 'walks a list',
  async run(ctx) {
    await ctx.send({ method: 'GET', path: '/customers' });
    inconclusive('the list fits on one page: no cursor to follow', 'fixtures.ids.pools.customers: more than 25 customers');
  },
};

const judged: CheckDef = {
  id: 's.me',
  clause: '4.10.me',
  title: 'reads /me',
  async run(ctx) {
    const x = await ctx.send({ method: 'GET', path: '/me' });
    return x.response?.status === 200
      ? { status: 'passed', cases: 1 }
      : { status: 'failed', cases: 1, failures: [{ expected: '200', actual: String(x.response?.status), exchanges: [x] }] };
  },
};

/** Answers 422 to a "bad" value, 200 otherwise. */
const refusing = () =>
  fakeClient((s) =>
    JSON.stringify(s.json ?? {}).includes('bad')
      ? { status: 422, json: { error: { code: 'request.validation_failed', message: 'm', requestId: 'r' } } }
      : { status: 200, json: {} },
  );

async function propertyOver(values: fc.Arbitrary<string>, runs: number) {
  const out = await runConformance({
    target: target(),
    runs,
    seed: 3,
    client: refusing(),
    catalogue: suite([
      {
        id: 's.prop',
        clause: '4.10.me',
        title: 'a property over names',
        run: (ctx) =>
          runProperty(ctx, values, async (v, rec) => {
            const x = await rec.send({ method: 'PUT', path: '/authoring/collections/c1', json: { name: v } });
            if (x.response?.status === 422) rec.discard(`name ${v} refused with 422`);
            rec.expect(x.response?.status === 200, '200', () => String(x.response?.status));
          }),
      },
    ]),
  });
  return out.checks[0]!;
}

describe('inconclusive checks', () => {
  it('are reported with reason and remedy, counted apart, never as passed', async () => {
    const out = await runConformance({
      target: target(),
      runs: 1,
      seed: 1,
      client: fakeClient(() => ({ status: 200, json: {} })),
      catalogue: suite([unjudged]),
    });
    const c = out.checks[0]!;
    expect(c).toMatchObject({
      status: 'inconclusive',
      reason: 'the list fits on one page: no cursor to follow',
      remedy: 'fixtures.ids.pools.customers: more than 25 customers',
    });
    expect(out.findings).toEqual([]);
    expect(summaryLines({ ...out, seed: 1 }).join('\n')).toMatch(
      /0 passed, 0 failed, 0 warned, 1 inconclusive, 0 skipped[\s\S]*inconclusive s\.one-page: the list fits on one page.*to judge it: fixtures\.ids\.pools\.customers/,
    );
  });

  it('every output shows them apart; the verdict passes unless the gate requires verdicts', async () => {
    const out = await runConformance({
      target: target(),
      runs: 1,
      seed: 1,
      client: fakeClient(() => ({ status: 200, json: {} })),
      catalogue: suite([unjudged, judged]),
    });
    const build = (failOnInconclusive: boolean) =>
      buildResults({
        command: 'conformance',
        target: { name: 't', baseUrl: 'http://127.0.0.1:9/v1', embedded: false },
        startedAt: new Date(0),
        finishedAt: new Date(1000),
        aborted: false,
        checks: out.checks,
        findings: [],
        exchanges: [],
        load: [],
        errors: [],
        failOnInconclusive,
      });
    const lenient = build(false);
    expect(lenient.verdict).toBe('passed');
    const gate = parseResults(JSON.stringify(build(true)), 'results.json'); // the JSON round-trips and keeps the gate
    expect(gate.verdict).toBe('failed');
    expect(computeVerdict(gate)).toBe('failed');

    const junit = buildJunit(gate);
    expect(junit).toMatch(/skipped="1"/);
    expect(junit).toMatch(
      /<skipped message="inconclusive: the list fits on one page: no cursor to follow — to judge it: fixtures\.ids\.pools\.customers/,
    );
    const md = buildMarkdown(gate);
    expect(md).toMatch(/\| Inconclusive \|/);
    expect(md).toMatch(/### Checks that could not judge \(the gate requires a verdict\)\n\n- s\.one-page: the list fits on one page/);
    const html = renderHtml(gate);
    expect(html).toMatch(/<span class="badge inconclusive">inconclusive<\/span>/);
    expect(html).toContain('could not judge: the list fits on one page');
    expect(html).toMatch(/class="tile bad"><div class="v">1<\/div><div class="k">inconclusive/);
  });
});

describe('a run that judged nothing', () => {
  it('is a run-level error, never a pass (a target answering only 5xx, say)', async () => {
    const out = await runConformance({
      target: target(),
      runs: 1,
      seed: 1,
      client: fakeClient(() => ({ status: 200, json: {} })),
      catalogue: suite([unjudged]),
    });
    const r = buildResults({
      command: 'conformance',
      target: { name: 't', baseUrl: 'http://127.0.0.1:9/v1', embedded: false },
      startedAt: new Date(0),
      finishedAt: new Date(1000),
      aborted: false,
      checks: out.checks,
      findings: [],
      exchanges: [],
      load: [],
      errors: [],
    });
    expect(r.verdict).toBe('error');
    expect(r.errors).toEqual([
      'SPGATE_ERR_NOTHING_JUDGED: no check reached a verdict: all 1 that ran were inconclusive (first, s.one-page: the list fits on one page: no cursor to follow)',
    ]);
  });
});

describe('discarded cases', () => {
  it('a property whose every input is refused is inconclusive, naming the refusal', async () => {
    const c = await propertyOver(fc.constant('bad-name'), 4);
    expect(c.status).toBe('inconclusive');
    expect(c.reason).toMatch(/4 of 4 generated inputs were refused as invalid \(first: name bad-name refused with 422/);
  });

  it('a property with enough judged cases passes and says how many were discarded', async () => {
    const c = await propertyOver(fc.constantFrom('bad-name', 'good-name'), 20);
    expect(c.status).toBe('passed');
    expect(c.reason).toMatch(/of 20 generated inputs were refused as invalid .*; \d+ judged/);
  });

  // Regression: cases were counted as numRuns + examples, but fast-check runs the examples within numRuns,
  // so 3 runs whose every case was discarded reported 5 judged and passed.
  it('counts the cases that ran, examples included once', async () => {
    const out = await runConformance({
      target: target(),
      runs: 3,
      seed: 3,
      client: refusing(),
      catalogue: suite([
        {
          id: 's.prop',
          clause: '4.10.me',
          title: 'p',
          run: (ctx) =>
            runProperty(
              ctx,
              fc.constant('bad'),
              async (v, rec) => {
                const x = await rec.send({ method: 'PUT', path: '/authoring/collections/c1', json: { name: v } });
                if (x.response?.status === 422) rec.discard('refused');
              },
              { examples: ['bad', 'bad', 'bad', 'bad', 'bad'] },
            ),
        },
      ]),
    });
    expect(out.checks[0]).toMatchObject({ status: 'inconclusive', cases: 3 });
    expect(out.checks[0]!.reason).toMatch(/^3 of 3 generated inputs were refused/);
  });

  it('a discard never hides a failure of another case', async () => {
    const out = await runConformance({
      target: target(),
      runs: 10,
      seed: 3,
      client: fakeClient((s) => ({ status: JSON.stringify(s.json ?? {}).includes('bad') ? 422 : 500, json: {} })),
      catalogue: suite([
        {
          id: 's.prop',
          clause: '4.10.me',
          title: 'p',
          run: (ctx) =>
            runProperty(ctx, fc.constantFrom('bad', 'good'), async (v, rec) => {
              const x = await rec.send({ method: 'PUT', path: '/authoring/collections/c1', json: { name: v } });
              if (x.response?.status === 422) rec.discard('refused');
              rec.require(x.response?.status === 200, '200', () => String(x.response?.status));
            }),
        },
      ]),
    });
    expect(out.checks[0]!.status).toBe('failed');
    expect(out.findings[0]!.actual).toMatch(/^500 — input "good"/);
  });

  it('a single case that discards is inconclusive; one that already failed stays failed', async () => {
    const io = {
      send: async () => {
        throw new Error('unused');
      },
    };
    await expect(runCase(io, async (rec) => rec.discard('assignee agt_x refused'))).rejects.toThrow(
      /the case's input was refused as invalid: assignee agt_x refused/,
    );
    const o = await runCase(io, async (rec) => {
      rec.expect(false, 'x', () => 'y');
      rec.discard('later refusal');
    });
    expect(o.status).toBe('failed');
  });

  it('merging an inconclusive part stops an unfailed check as inconclusive', () => {
    const rec = new Recorder();
    expect(() => rec.merge({ status: 'inconclusive', cases: 3, reason: 'every input refused' })).toThrow('every input refused');
    rec.expect(false, 'a', () => 'b');
    expect(() => rec.merge({ status: 'inconclusive', cases: 3, reason: 'every input refused' })).not.toThrow();
  });
});
