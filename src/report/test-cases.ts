/**
 * The test cases of a run, as CI test viewers see them: a suite per conformance suite (a case per check) and
 * per load profile (a case per threshold and per rate-limit class, plus the profile run itself when it did not
 * complete), and one for run errors. JUnit and CTRF render these; neither decides outcomes of its own.
 * Their text lands in CI logs and test viewers: everything from a response is CI text (failures.ts), and a
 * check's findings are one case with a count and what differs between occurrences.
 */
import type { CheckResult, FindingRecord, ProfileResult, Results } from '../results/schema.js';
import { clauseLabel } from './clauses.js';
import { ciText, groupFindings, occurrenceLines, windowText } from './failures.js';

/** One test case; `raw` is spgate's own status where the outcome kind folds several (warned, inconclusive). */
export interface Case {
  classname: string;
  name: string;
  timeSeconds: number;
  outcome:
    | { kind: 'passed' }
    | { kind: 'failure' | 'error'; message: string; type: string; body: string }
    | { kind: 'skipped'; message: string };
  systemOut?: string;
  /** The check's status, for formats that can tell a warning or an inconclusive check from a pass or a skip. */
  raw?: CheckResult['status'];
}

/** A named group of cases. */
export interface Suite {
  name: string;
  /** When the suite started: ISO 8601 with its zone (UTC, `Z`). */
  timestamp: string;
  /** The suite's wall time when its cases do not add up to it (a load profile's cases are judged at its end). */
  timeSeconds?: number;
  cases: Case[];
}

function findingText(findings: readonly FindingRecord[]): string {
  return groupFindings(findings)
    .map((g) => {
      const lines = [
        `clause: ${clauseLabel(g.clause)}`,
        `severity: ${g.severity} (${g.count} finding${g.count > 1 ? 's' : ''})`,
        ...occurrenceLines(g, 10),
      ];
      if (g.curl.length) lines.push('reproduce:', ...g.curl.map((c) => `  ${ciText(c)}`));
      if (g.rerun) lines.push(`re-run: ${g.rerun}`);
      return lines.join('\n');
    })
    .join('\n\n');
}

function checkCase(c: CheckResult, findings: FindingRecord[]): Case {
  const mine = findings.filter((f) => f.checkId === c.checkId && f.clause === c.clause && f.source === c.suite);
  const base = {
    classname: `conformance.${c.suite}`,
    name: `${c.clause} ${c.checkId}: ${c.title}`,
    timeSeconds: c.durationMs / 1000,
    raw: c.status,
  };
  const body = findingText(mine) || `clause: ${clauseLabel(c.clause)}${c.reason ? `\nreason: ${ciText(c.reason)}` : ''}`;
  switch (c.status) {
    case 'passed':
      return { ...base, outcome: { kind: 'passed' } };
    case 'warned':
      // A warning (failing `assumed` check) is not a CI failure; viewers show system-out next to the case.
      return { ...base, outcome: { kind: 'passed' }, systemOut: `WARNING (assumed basis)\n${body}` };
    case 'skipped':
      return { ...base, outcome: { kind: 'skipped', message: ciText(c.reason ?? 'skipped') } };
    case 'inconclusive':
      // JUnit has no "ran but could not judge": a skipped case whose message says so, never a pass.
      return {
        ...base,
        outcome: { kind: 'skipped', message: `inconclusive: ${ciText(c.reason ?? '')}${c.remedy ? ` — to judge it: ${c.remedy}` : ''}` },
      };
    case 'failed': {
      const first = mine[0];
      const message = first
        ? `${c.clause}${mine.length > 1 ? ` (×${mine.length})` : ''}: expected ${ciText(first.expected)}; actual ${ciText(first.actual)}`
        : `${c.clause}: ${c.title}`;
      return { ...base, outcome: { kind: 'failure', message, type: c.clause, body } };
    }
    case 'error':
      return { ...base, outcome: { kind: 'error', message: ciText(c.reason ?? 'check errored'), type: c.clause, body } };
  }
}

function profileCases(p: ProfileResult): Case[] {
  const classname = `load.${p.name}`;
  const cases: Case[] = p.thresholds.map((t) => ({
    classname,
    name: `threshold ${t.expression}`,
    timeSeconds: 0,
    outcome:
      t.notJudged !== undefined
        ? { kind: 'skipped', message: ciText(t.notJudged) }
        : t.ok
          ? { kind: 'passed' }
          : {
              kind: 'failure',
              message: `${t.expression} breached: actual ${ciText(t.actual)}`,
              type: 'threshold',
              body: `expression: ${t.expression}\nactual: ${t.actual}`,
            },
  }));
  const classes = new Set<string>(p.rateLimit.classes.map((c) => c.class));
  for (const v of p.rateLimit.violations) classes.add(v.class ?? 'all');
  for (const cls of [...classes].sort()) {
    const vs = p.rateLimit.violations.filter((v) => (v.class ?? 'all') === cls);
    const analysis = p.rateLimit.classes.find((c) => c.class === cls);
    const name = `rate limit (${cls === 'all' ? 'all classes' : cls})`;
    if (vs.length === 0) {
      cases.push({
        classname,
        name,
        timeSeconds: 0,
        outcome: { kind: 'passed' },
        ...(analysis ? { systemOut: analysis.explanation } : {}),
      });
      continue;
    }
    const body = vs
      .map((v) =>
        [
          `clause: ${clauseLabel(v.rule)}`,
          `message: ${ciText(v.message)}`,
          ...(v.window ? [`window: ${windowText(v.window)}`] : []),
          `samples: ${v.samples.map((s) => `${s.t} ms ${s.status}${s.requestId ? ` ${s.requestId}` : ''}`).join(', ')}`,
        ].join('\n'),
      )
      .join('\n\n');
    cases.push({
      classname,
      name,
      timeSeconds: 0,
      outcome: {
        kind: 'failure',
        message: `${vs.length} violating window(s): ${vs[0]!.rule}: ${ciText(vs[0]!.message)}`,
        type: vs[0]!.rule,
        body,
      },
    });
  }
  if (p.status === 'error' || p.status === 'aborted') {
    cases.push({
      classname,
      name: 'profile run',
      timeSeconds: p.durationMs / 1000,
      outcome: { kind: 'error', message: ciText(p.error ?? `profile ${p.status}`), type: p.status, body: ciText(p.error ?? '') },
    });
  } else if (cases.length === 0) {
    cases.push({
      classname,
      name: 'profile run',
      timeSeconds: p.durationMs / 1000,
      outcome: p.status === 'failed' ? { kind: 'failure', message: 'profile failed', type: 'profile', body: '' } : { kind: 'passed' },
    });
  }
  return cases;
}

/** Every suite of test cases of a run. */
export function testSuites(r: Results): Suite[] {
  const suites: Suite[] = [];
  const bySuite = new Map<string, CheckResult[]>();
  for (const c of r.checks) bySuite.set(c.suite, [...(bySuite.get(c.suite) ?? []), c]);
  for (const [name, checks] of bySuite)
    suites.push({ name: `conformance.${name}`, timestamp: r.meta.startedAt, cases: checks.map((c) => checkCase(c, r.findings)) });
  for (const p of r.load)
    suites.push({ name: `load.${p.name}`, timestamp: p.startedAt, timeSeconds: p.durationMs / 1000, cases: profileCases(p) });
  if (r.errors.length > 0 || r.meta.aborted) {
    const cases: Case[] = r.errors.map((e, i) => ({
      classname: 'spgate',
      name: `run error ${i + 1}`,
      timeSeconds: 0,
      outcome: { kind: 'error', message: ciText(e), type: 'run', body: ciText(e) },
    }));
    if (r.meta.aborted)
      cases.push({
        classname: 'spgate',
        name: 'run aborted',
        timeSeconds: 0,
        outcome: {
          kind: 'error',
          message: r.meta.abortReason ?? 'aborted',
          type: 'aborted',
          body: 'The run was interrupted; results are partial.',
        },
      });
    suites.push({ name: 'spgate', timestamp: r.meta.startedAt, cases });
  }
  return suites;
}
