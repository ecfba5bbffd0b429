/**
 * Regression (issue 31): annotations and JUnit / CTRF failure messages carried raw response bodies, with
 * customers' names and emails, into CI logs. A failing run against the reference server with two customer
 * faults — delete answers 200 with the customer (a warning whose `actual` quoted the body) and deleted
 * customers stay listed (failures found by searching the customer's email) — must keep its fixture customers'
 * emails and names out of every CI-facing output, while the report files keep the full exchange.
 */
import { readFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPipeline } from '../../src/run/pipeline.js';
import { createProgress } from '../../src/run/progress.js';
import { failureLines } from '../../src/report/failures.js';
import { summaryLines } from '../../src/conformance/print.js';
import { annotations } from '../../src/action/github.js';

const quiet = createProgress({ write: () => true }, { live: false });

describe('no response data in CI-facing output', () => {
  it("a failing run keeps its fixture customers' emails and names out of the console, step summary, annotations, JUnit and CTRF", async () => {
    const out = await mkdtemp(join(tmpdir(), 'spgate-redact-'));
    const { results: r, runDir } = await runPipeline({
      seed: 11,
      runs: 5,
      outBase: out,
      command: 'spgate run (test)',
      signal: new AbortController().signal,
      progress: quiet,
      suites: ['customers'],
      profiles: [],
      server: { faults: ['delete-200-body', 'soft-delete-listed'] },
    });
    expect(r.verdict).toBe('failed');
    // The fixture customers the failing checks touched: their emails and names are in the recorded bodies.
    const bodies = r.exchanges.map((x) => x.response?.body ?? '').join('\n');
    const emails = [...new Set([...bodies.matchAll(/"email":"([^"]+)"/g)].map((m) => m[1]!))];
    const names = [...new Set([...bodies.matchAll(/"name":"([^"]+)"/g)].map((m) => m[1]!))].filter((n) => n.length > 6);
    expect(emails.length).toBeGreaterThan(0);
    expect(names.length).toBeGreaterThan(0);
    const quotedBody = r.findings.find((f) => f.checkId === 'customers.delete.status')!;
    expect(quotedBody.actual).toContain(emails.find((e) => quotedBody.actual.includes(e)) ?? '(the finding quotes no email)');
    // The report files keep the full exchange.
    expect(await readFile(join(runDir, 'results.json'), 'utf8')).toContain(emails[0]!);

    const ci: Record<string, string> = {
      console: [...failureLines(r), ...summaryLines({ checks: r.checks, findings: r.findings, aborted: false, seed: 11 })].join('\n'),
      'summary.md': await readFile(join(runDir, 'summary.md'), 'utf8'),
      annotations: annotations(r)
        .map((a) => `${a.title}\n${a.message}`)
        .join('\n'),
      'junit.xml': await readFile(join(runDir, 'junit.xml'), 'utf8'),
      'ctrf.json': await readFile(join(runDir, 'ctrf.json'), 'utf8'),
    };
    for (const [where, text] of Object.entries(ci)) {
      expect(text.length, where).toBeGreaterThan(0);
      for (const e of emails) {
        expect(text, `${where} holds ${e}`).not.toContain(e);
        expect(text, `${where} holds ${e} percent-encoded`).not.toContain(encodeURIComponent(e));
      }
      for (const n of names) expect(text, `${where} holds ${n}`).not.toContain(n);
      // Exchange ids mean nothing outside the HTML report: said for what they are.
      expect(text, where).not.toMatch(/\((x\d+)\)|in x\d+\b/);
    }
    // What failed is still named: the check, its clause, and a count of its occurrences.
    expect(ci.console).toMatch(/✗ §3 .*3\.customer\.soft-delete-unlisted customers\.delete\.unlisted ×\d/);
    expect(ci.annotations).toContain('customers.delete.unlisted (3.customer.soft-delete-unlisted) ×');
  });
});
