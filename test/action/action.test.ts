/**
 * The GitHub Action: action.yml validates offline (@action-validator/cli, the schema GitHub's runner
 * follows), and its step's script, run as the runner runs it (INPUT_* variables, GITHUB_STEP_SUMMARY and
 * GITHUB_OUTPUT files), runs spgate against a reference server and writes the summary, an annotation per
 * finding (title: check id and clause) and the outputs — failing the step exactly when the gate fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitArgs } from '../../src/action/args.js';
import { annotations, readInputs, spgateArgs } from '../../src/action/github.js';
import { ANNOTATIONS_PER_LEVEL, capAnnotations, type Annotation } from '../../src/action/annotations.js';
import { makeResults } from '../report/fixtures.js';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import { runCli } from '../support/cli.js';

const ROOT = join(import.meta.dirname, '../..');
const ACTION_BIN = join(ROOT, 'bin/spgate-action.js');
let dir: string;
let faulty: RunningReferenceServer;
let clean: RunningReferenceServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spgate-action-'));
  faulty = await startReferenceServer({ seed: 5, faults: ['auth-expired-accepted'] });
  clean = await startReferenceServer({ seed: 5 });
  writeFileSync(join(dir, 'faulty.json'), JSON.stringify(faulty.describe()));
  writeFileSync(join(dir, 'clean.json'), JSON.stringify(clean.describe()));
});
afterAll(async () => {
  await Promise.all([faulty.close(), clean.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the step as the runner would, in `dir`, and returns its exit code, log, summary and outputs. */
async function step(inputs: Record<string, string>, name: string) {
  const summary = join(dir, `${name}.summary.md`);
  const output = join(dir, `${name}.output`);
  writeFileSync(summary, '');
  writeFileSync(output, '');
  const env: NodeJS.ProcessEnv = { GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: output, GITHUB_ACTIONS: 'true' };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  const r = await runCli([], { bin: ACTION_BIN, cwd: dir, env, timeoutMs: 120_000 });
  return { ...r, summary: readFileSync(summary, 'utf8'), outputs: parseOutputs(readFileSync(output, 'utf8')) };
}

/** $GITHUB_OUTPUT as the runner reads it: `name=value` lines and `name<<DELIMITER` blocks (@actions/core writes these). */
function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const block = /^([\w-]+)<<(.+)$/.exec(lines[i]!);
    if (block) {
      const end = lines.indexOf(block[2]!, i + 1);
      out[block[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (lines[i]!.includes('=')) {
      const [k, v] = lines[i]!.split(/=(.*)/s);
      out[k!] = v!;
    }
  }
  return out;
}

describe('the GitHub Action', () => {
  it('action.yml validates with @action-validator/cli, and a broken one does not', () => {
    const validator = join(ROOT, 'node_modules/.bin/action-validator');
    expect(spawnSync(validator, [join(ROOT, 'action.yml')], { encoding: 'utf8' }).status).toBe(0);
    const broken = join(dir, 'action.yml');
    writeFileSync(broken, readFileSync(join(ROOT, 'action.yml'), 'utf8').replace('using: composite', 'usin: composite'));
    const r = spawnSync(validator, [broken], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout + r.stderr).toContain('/runs/using');
  });

  it('turns inputs into one spgate command line', () => {
    const load = spgateArgs(
      readInputs({
        INPUT_COMMAND: 'load',
        INPUT_PROFILE: 'smoke',
        INPUT_TARGET: 't.yaml',
        INPUT_THRESHOLDS: 'read.p95 < 250\n\nerrors < 1%\n',
        INPUT_ARGS: '--duration 5',
        INPUT_OUT: 'o',
      }),
    );
    expect(load).toEqual({
      argv: [
        'load',
        '--target',
        't.yaml',
        '--profile',
        'smoke',
        '--threshold',
        'read.p95 < 250',
        '--threshold',
        'errors < 1%',
        '--out',
        'o',
        '--duration',
        '5',
      ],
      reportDir: 'o',
    });
    const run = spgateArgs(readInputs({ 'INPUT_FAIL-ON-INCONCLUSIVE': 'true', 'INPUT_BASE-URL': 'https://proxy/v1' }));
    expect(run).toEqual({
      argv: ['run', '--base-url', 'https://proxy/v1', '--fail-on-inconclusive', '--out', 'spgate-reports'],
      reportDir: join('spgate-reports', 'latest'),
    });
    expect(() => readInputs({ INPUT_COMMAND: 'serve' })).toThrow('input command must be one of run, conformance, load, not "serve"');
    expect(() => spgateArgs(readInputs({ INPUT_COMMAND: 'load' }))).toThrow('input profile is needed with command load');
  });

  it('splits args as a shell splits words, quotes kept together, nothing expanded', () => {
    expect(splitArgs(`--seed 7 --threshold "read.p95 < 250" --threshold 'errors < 1%'`)).toEqual([
      '--seed',
      '7',
      '--threshold',
      'read.p95 < 250',
      '--threshold',
      'errors < 1%',
    ]);
    expect(splitArgs('--base-url $(curl evil) "$HOME" \\"x\\ y')).toEqual(['--base-url', '$(curl', 'evil)', '$HOME', '"x y']);
    expect(splitArgs('--seed 7\n--runs 50\n')).toEqual(['--seed', '7', '--runs', '50']);
    expect(splitArgs(`a "" '' "say \\"hi\\""`)).toEqual(['a', '', '', 'say "hi"']);
    expect(() => splitArgs('--threshold "p95 < 250')).toThrow('input args: unterminated double quote');
    const quoted = spgateArgs(readInputs({ INPUT_COMMAND: 'conformance', INPUT_ARGS: '--check "auth.a b"' }));
    expect(quoted.argv.slice(-2)).toEqual(['--check', 'auth.a b']);
  });

  it('annotates at most 10 per level, most important first, the rest named in the 10th', () => {
    const many = (level: Annotation['level'], n: number): Annotation[] =>
      Array.from({ length: n }, (_, i) => ({ level, title: `${level} ${i + 1}`, message: 'm' }));
    const capped = capAnnotations([...many('error', 35), ...many('warning', 3), ...many('notice', 12)]);
    const errors = capped.filter((a) => a.level === 'error');
    expect(errors).toHaveLength(ANNOTATIONS_PER_LEVEL);
    expect(errors.slice(0, 9).map((a) => a.title)).toEqual(many('error', 9).map((a) => a.title));
    expect(errors[9]!.title).toBe('26 more errors');
    expect(errors[9]!.message).toContain('error 10\n');
    expect(errors[9]!.message).toContain('error 35\n');
    expect(capped.filter((a) => a.level === 'warning')).toHaveLength(3);
    expect(capped.filter((a) => a.level === 'notice')).toHaveLength(ANNOTATIONS_PER_LEVEL);
    // The synthetic failing run: thresholds breached come before findings, and no level goes past 10.
    const real = annotations(makeResults());
    for (const level of ['error', 'warning', 'notice'] as const)
      expect(real.filter((a) => a.level === level).length).toBeLessThanOrEqual(ANNOTATIONS_PER_LEVEL);
    expect(real[0]!.title).toMatch(/^threshold /);
  });

  it('a failing gate: exit 1, an annotation per finding, the summary and the outputs', async () => {
    const r = await step(
      { command: 'conformance', target: 'faulty.json', args: '--suite auth --runs 2 --seed 1', out: 'faulty-reports' },
      'faulty',
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^::error title=auth\.[\w.-]+ \(5\.auth\.expired\)( ×\d+)?::/m);
    expect(r.stdout.match(/^::error /gm)!.length).toBeLessThanOrEqual(10);
    expect(r.summary).toMatch(/^## spgate: /m);
    expect(r.outputs).toMatchObject({ verdict: 'failed', 'report-dir': 'faulty-reports', report: join('faulty-reports', 'index.html') });
    expect(Number(r.outputs['findings-errors'])).toBeGreaterThan(0);
    expect(r.stdout + r.summary).not.toContain(faulty.target.keys.admin.key);
  });

  it('a clean gate: exit 0, no error annotation, verdict passed', async () => {
    const r = await step(
      { command: 'conformance', target: 'clean.json', args: '--suite auth --runs 2 --seed 1', out: 'clean-reports' },
      'clean',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/^::error/m);
    expect(r.outputs.verdict).toBe('passed');
    expect(Number(r.outputs.checks)).toBeGreaterThan(5);
  });

  it('bad input is one error annotation and exit 2, nothing run', async () => {
    const r = await step({ command: 'load' }, 'bad');
    expect(r.code).toBe(2);
    expect(r.stdout.trim()).toBe('::error title=spgate action::input profile is needed with command load');
  });
});
