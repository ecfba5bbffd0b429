/**
 * JUnit XML for CI test viewers: one testsuite per conformance suite (a testcase per check) and one per
 * load profile (a testcase per threshold and per rate-limit class, plus the profile run itself when it did
 * not complete). Everything server-provided goes through xmlText/xmlAttr, so the file always parses.
 */
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckResult, FindingRecord, ProfileResult, Results } from '../results/schema.js';
import { xmlAttr, xmlText } from './escape.js';
import type { Reporter } from './reporter.js';
import { clauseLabel } from './clauses.js';

interface Case {
  classname: string;
  name: string;
  timeSeconds: number;
  outcome: { kind: 'passed' } | { kind: 'failure' | 'error'; message: string; type: string; body: string } | { kind: 'skipped'; message: string };
  systemOut?: string;
}

interface Suite {
  name: string;
  timestamp: string;
  cases: Case[];
}

function findingText(f: FindingRecord): string {
  const lines = [`clause: ${clauseLabel(f.clause)}`, `severity: ${f.severity} (basis: ${f.basis})`, `expected: ${f.expected}`, `actual: ${f.actual}`];
  if (f.reproduction?.curl.length) lines.push('reproduce:', ...f.reproduction.curl.map((c) => `  ${c}`));
  if (f.reproduction?.command) lines.push(`re-run: ${f.reproduction.command}`);
  return lines.join('\n');
}

function checkCase(c: CheckResult, findings: FindingRecord[]): Case {
  const mine = findings.filter((f) => f.checkId === c.checkId && f.clause === c.clause && f.source === c.suite);
  const base = { classname: `conformance.${c.suite}`, name: `${c.clause} ${c.checkId}: ${c.title}`, timeSeconds: c.durationMs / 1000 };
  const body = mine.map(findingText).join('\n\n') || `clause: ${clauseLabel(c.clause)}${c.reason ? `\nreason: ${c.reason}` : ''}`;
  switch (c.status) {
    case 'passed':
      return { ...base, outcome: { kind: 'passed' } };
    case 'warned':
      // A warning (failing `assumed` check) is not a CI failure; viewers show system-out next to the case.
      return { ...base, outcome: { kind: 'passed' }, systemOut: `WARNING (assumed basis)\n${body}` };
    case 'skipped':
      return { ...base, outcome: { kind: 'skipped', message: c.reason ?? 'skipped' } };
    case 'inconclusive':
      // JUnit has no "ran but could not judge": a skipped case whose message says so, never a pass.
      return { ...base, outcome: { kind: 'skipped', message: `inconclusive: ${c.reason ?? ''}${c.remedy ? ` — to judge it: ${c.remedy}` : ''}` } };
    case 'failed': {
      const first = mine[0];
      const message = first ? `${c.clause}: expected ${first.expected}; actual ${first.actual}` : `${c.clause}: ${c.title}`;
      return { ...base, outcome: { kind: 'failure', message, type: c.clause, body } };
    }
    case 'error':
      return { ...base, outcome: { kind: 'error', message: c.reason ?? 'check errored', type: c.clause, body } };
  }
}

function profileCases(p: ProfileResult): Case[] {
  const classname = `load.${p.name}`;
  const cases: Case[] = p.thresholds.map((t) => ({
    classname,
    name: `threshold ${t.expression}`,
    timeSeconds: 0,
    outcome: t.ok ? { kind: 'passed' } : { kind: 'failure', message: `${t.expression} breached: actual ${t.actual}`, type: 'threshold', body: `expression: ${t.expression}\nactual: ${t.actual}` },
  }));
  const classes = new Set<string>(p.rateLimit.classes.map((c) => c.class));
  for (const v of p.rateLimit.violations) classes.add(v.class ?? 'all');
  for (const cls of [...classes].sort()) {
    const vs = p.rateLimit.violations.filter((v) => (v.class ?? 'all') === cls);
    const analysis = p.rateLimit.classes.find((c) => c.class === cls);
    const name = `rate limit (${cls === 'all' ? 'all classes' : cls})`;
    if (vs.length === 0) {
      cases.push({ classname, name, timeSeconds: 0, outcome: { kind: 'passed' }, ...(analysis ? { systemOut: analysis.explanation } : {}) });
      continue;
    }
    const body = vs
      .map((v) => [`clause: ${clauseLabel(v.rule)}`, `message: ${v.message}`, ...(v.window ? [`window: ${v.window.start}–${v.window.end} ms`] : []), `samples: ${v.samples.map((s) => `${s.t} ms ${s.status}${s.requestId ? ` ${s.requestId}` : ''}`).join(', ')}`].join('\n'))
      .join('\n\n');
    cases.push({ classname, name, timeSeconds: 0, outcome: { kind: 'failure', message: `${vs.length} violation(s): ${vs[0]!.rule}: ${vs[0]!.message}`, type: vs[0]!.rule, body } });
  }
  if (p.status === 'error' || p.status === 'aborted') {
    cases.push({ classname, name: 'profile run', timeSeconds: p.durationMs / 1000, outcome: { kind: 'error', message: p.error ?? `profile ${p.status}`, type: p.status, body: p.error ?? '' } });
  } else if (cases.length === 0) {
    cases.push({ classname, name: 'profile run', timeSeconds: p.durationMs / 1000, outcome: p.status === 'failed' ? { kind: 'failure', message: 'profile failed', type: 'profile', body: '' } : { kind: 'passed' } });
  }
  return cases;
}

function tally(cases: Case[]): { tests: number; failures: number; errors: number; skipped: number; time: number } {
  const t = { tests: cases.length, failures: 0, errors: 0, skipped: 0, time: 0 };
  for (const c of cases) {
    t.time += c.timeSeconds;
    if (c.outcome.kind === 'failure') t.failures++;
    else if (c.outcome.kind === 'error') t.errors++;
    else if (c.outcome.kind === 'skipped') t.skipped++;
  }
  return t;
}

const secs = (s: number): string => s.toFixed(3);

function renderCase(c: Case): string {
  const open = `    <testcase classname="${xmlAttr(c.classname)}" name="${xmlAttr(c.name)}" time="${secs(c.timeSeconds)}"`;
  const inner: string[] = [];
  const o = c.outcome;
  if (o.kind === 'failure' || o.kind === 'error') inner.push(`      <${o.kind} message="${xmlAttr(o.message)}" type="${xmlAttr(o.type)}">${xmlText(o.body)}</${o.kind}>`);
  else if (o.kind === 'skipped') inner.push(`      <skipped message="${xmlAttr(o.message)}"/>`);
  if (c.systemOut) inner.push(`      <system-out>${xmlText(c.systemOut)}</system-out>`);
  return inner.length ? `${open}>\n${inner.join('\n')}\n    </testcase>` : `${open}/>`;
}

/** Builds the JUnit XML document for a run. */
export function buildJunit(r: Results): string {
  const suites: Suite[] = [];
  const bySuite = new Map<string, CheckResult[]>();
  for (const c of r.checks) bySuite.set(c.suite, [...(bySuite.get(c.suite) ?? []), c]);
  for (const [name, checks] of bySuite) suites.push({ name: `conformance.${name}`, timestamp: r.meta.startedAt, cases: checks.map((c) => checkCase(c, r.findings)) });
  for (const p of r.load) suites.push({ name: `load.${p.name}`, timestamp: p.startedAt, cases: profileCases(p) });
  if (r.errors.length > 0 || r.meta.aborted) {
    const cases: Case[] = r.errors.map((e, i) => ({ classname: 'spgate', name: `run error ${i + 1}`, timeSeconds: 0, outcome: { kind: 'error', message: e, type: 'run', body: e } }));
    if (r.meta.aborted) cases.push({ classname: 'spgate', name: 'run aborted', timeSeconds: 0, outcome: { kind: 'error', message: r.meta.abortReason ?? 'aborted', type: 'aborted', body: 'The run was interrupted; results are partial.' } });
    suites.push({ name: 'spgate', timestamp: r.meta.startedAt, cases });
  }
  const all = tally(suites.flatMap((s) => s.cases));
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="spgate" tests="${all.tests}" failures="${all.failures}" errors="${all.errors}" skipped="${all.skipped}" time="${secs(all.time)}">`,
  ];
  suites.forEach((s, i) => {
    const t = tally(s.cases);
    lines.push(`  <testsuite name="${xmlAttr(s.name)}" id="${i}" tests="${t.tests}" failures="${t.failures}" errors="${t.errors}" skipped="${t.skipped}" time="${secs(t.time)}" timestamp="${xmlAttr(s.timestamp.replace(/Z$/, ''))}">`);
    for (const c of s.cases) lines.push(renderCase(c));
    lines.push('  </testsuite>');
  });
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

export const junitReporter: Reporter = {
  name: 'junit',
  async render(results, outDir) {
    await mkdir(outDir, { recursive: true });
    const path = join(outDir, 'junit.xml');
    await writeFile(path, buildJunit(results), 'utf8');
    return [path];
  },
};
