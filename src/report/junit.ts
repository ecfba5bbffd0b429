/**
 * JUnit XML for CI test viewers: one testsuite per conformance suite (a testcase per check) and one per
 * load profile (a testcase per threshold and per rate-limit class, plus the profile run itself when it did
 * not complete). Everything server-provided goes through xmlText/xmlAttr, so the file always parses.
 */
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Results } from '../results/schema.js';
import { xmlAttr, xmlText } from './escape.js';
import type { Reporter } from './reporter.js';
import { testSuites, type Case } from './test-cases.js';

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
  if (o.kind === 'failure' || o.kind === 'error')
    inner.push(`      <${o.kind} message="${xmlAttr(o.message)}" type="${xmlAttr(o.type)}">${xmlText(o.body)}</${o.kind}>`);
  else if (o.kind === 'skipped') inner.push(`      <skipped message="${xmlAttr(o.message)}"/>`);
  if (c.systemOut) inner.push(`      <system-out>${xmlText(c.systemOut)}</system-out>`);
  return inner.length ? `${open}>\n${inner.join('\n')}\n    </testcase>` : `${open}/>`;
}

/** Builds the JUnit XML document for a run. */
export function buildJunit(r: Results): string {
  const suites = testSuites(r);
  const all = tally(suites.flatMap((s) => s.cases));
  all.time = suites.reduce((sum, s) => sum + (s.timeSeconds ?? tally(s.cases).time), 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="spgate" tests="${all.tests}" failures="${all.failures}" errors="${all.errors}" skipped="${all.skipped}" time="${secs(all.time)}">`,
  ];
  suites.forEach((s, i) => {
    const t = tally(s.cases);
    // The zone stays: a timestamp without one is read in the viewer's local time.
    lines.push(
      `  <testsuite name="${xmlAttr(s.name)}" id="${i}" tests="${t.tests}" failures="${t.failures}" errors="${t.errors}" skipped="${t.skipped}" time="${secs(s.timeSeconds ?? t.time)}" timestamp="${xmlAttr(s.timestamp)}">`,
    );
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
