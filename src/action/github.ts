/**
 * The GitHub Action's step (action.yml): turns the action's inputs into one spgate command line, runs it,
 * and hands its results to the workflow through the official toolkit (@actions/core) — summary.md to the
 * step summary (core.summary), annotations (annotations.ts: most important first, at most 10 per level) and outputs
 * (verdict, counts, report path). Exits with spgate's own code, so the step fails exactly when the gate does.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseResults } from '../results/io.js';
import type { Results } from '../results/schema.js';
import { countResults } from '../results/verdict.js';
import * as core from '@actions/core';
import { allAnnotations, capAnnotations, type Annotation } from './annotations.js';
import { splitArgs } from './args.js';

const COMMANDS = ['run', 'conformance', 'load'] as const;
type ActionCommand = (typeof COMMANDS)[number];

/** The action's inputs as GitHub passes them (INPUT_<NAME> with dashes kept, upper-cased). */
export interface ActionInputs {
  command: ActionCommand;
  target: string;
  profile: string;
  baseUrl: string;
  /** Threshold expressions, one per line (load). */
  thresholds: string[];
  failOnInconclusive: boolean;
  /** Extra arguments, split as a shell splits words (args.ts). */
  args: string[];
  out: string;
}

/** Reads and checks the inputs; an unknown command is one line. */
export function readInputs(env: NodeJS.ProcessEnv): ActionInputs {
  const input = (name: string): string => (env[`INPUT_${name.toUpperCase()}`] ?? '').trim();
  const command = input('command') || 'run';
  if (!(COMMANDS as readonly string[]).includes(command))
    throw new Error(`input command must be one of ${COMMANDS.join(', ')}, not "${command}"`);
  return {
    command: command as ActionCommand,
    target: input('target'),
    profile: input('profile'),
    baseUrl: input('base-url'),
    thresholds: input('thresholds')
      .split('\n')
      .map((t) => t.trim())
      .filter(Boolean),
    failOnInconclusive: input('fail-on-inconclusive') === 'true',
    args: splitArgs(input('args')),
    out: input('out') || 'spgate-reports',
  };
}

/** The spgate arguments for the inputs, and the folder its reports land in. */
export function spgateArgs(i: ActionInputs): { argv: string[]; reportDir: string } {
  const argv: string[] = [i.command];
  if (i.target) argv.push('--target', i.target);
  if (i.baseUrl) argv.push('--base-url', i.baseUrl);
  if (i.command === 'load') {
    if (!i.profile) throw new Error('input profile is needed with command load');
    argv.push('--profile', i.profile);
    for (const t of i.thresholds) argv.push('--threshold', t);
  } else if (i.profile || i.thresholds.length) {
    throw new Error(`inputs profile and thresholds go with command load, not ${i.command}`);
  }
  if (i.failOnInconclusive) argv.push('--fail-on-inconclusive');
  argv.push('--out', i.out, ...i.args);
  return { argv, reportDir: i.command === 'run' ? join(i.out, 'latest') : i.out };
}

/** The annotations of a results document as the step writes them: most important first, at most 10 per level. */
export function annotations(r: Results): Annotation[] {
  return capAnnotations(allAnnotations(r));
}

function annotate(a: Annotation): void {
  core[a.level](a.message, { title: a.title });
}

function setOutputs(values: Record<string, string | number>): void {
  for (const [k, v] of Object.entries(values)) core.setOutput(k, v);
}

/** The step's outputs. */
export function outputs(r: Results, reportDir: string): Record<string, string | number> {
  const n = countResults(r);
  return {
    verdict: r.verdict,
    checks: n.checks.total,
    passed: n.checks.passed,
    failed: n.checks.failed,
    warned: n.checks.warned,
    inconclusive: n.checks.inconclusive,
    skipped: n.checks.skipped,
    'findings-errors': n.findings.error,
    'findings-warnings': n.findings.warning,
    'thresholds-breached': n.thresholds.failed,
    violations: n.violations,
    'report-dir': reportDir,
    report: join(reportDir, 'index.html'),
  };
}

/**
 * Appends summary.md to the step summary through core.summary (which writes to $GITHUB_STEP_SUMMARY of the
 * process environment); a summary that cannot be written is a warning, never the step's failure.
 */
async function writeSummary(text: string): Promise<void> {
  try {
    await core.summary.addRaw(text, true).write();
  } catch (err) {
    const message = `the step summary could not be written: ${(err as Error).message}`;
    annotate({ level: 'warning', title: 'spgate step summary', message });
  } finally {
    core.summary.emptyBuffer();
  }
}

/** Runs the step: spgate, then the summary, annotations and outputs; resolves to the exit code. */
export async function main(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let inputs: ActionInputs;
  let plan: ReturnType<typeof spgateArgs>;
  try {
    inputs = readInputs(env);
    plan = spgateArgs(inputs);
  } catch (err) {
    annotate({ level: 'error', title: 'spgate action', message: (err as Error).message });
    return 2;
  }
  const bin = env.SPGATE_BIN ?? fileURLToPath(new URL('../../bin/spgate.js', import.meta.url));
  process.stdout.write(`spgate ${plan.argv.join(' ')}\n`);
  const run = spawnSync(process.execPath, [bin, ...plan.argv], { stdio: 'inherit', env });
  const code = run.status ?? 3;
  const resultsPath = resolve(plan.reportDir, 'results.json');
  if (!existsSync(resultsPath)) {
    annotate({ level: 'error', title: 'spgate', message: `no results at ${resultsPath} (exit ${code}): see the log above` });
    setOutputs({ verdict: 'error', 'report-dir': plan.reportDir });
    return code === 0 ? 3 : code;
  }
  const results = parseResults(readFileSync(resultsPath, 'utf8'), resultsPath);
  const summary = resolve(plan.reportDir, 'summary.md');
  if (env.GITHUB_STEP_SUMMARY && existsSync(summary)) await writeSummary(readFileSync(summary, 'utf8'));
  for (const a of annotations(results)) annotate(a);
  setOutputs(outputs(results, plan.reportDir));
  return code;
}
