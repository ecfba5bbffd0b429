/**
 * The published package: `npm pack` (which builds dist/ on prepack) makes a tarball of compiled JavaScript
 * only, with its LICENSE and repository; installed into an empty folder it brings no dev dependency — no
 * tsx, no esbuild — and not the optional OpenTelemetry peers, yet `spgate` answers --version and --help,
 * runs the auth suite and a two-worker load run against the embedded server (the workers being compiled
 * children too), and `--metrics otlp=` without those peers is one line saying what to install.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorLines, runCli, stackFrames } from '../support/cli.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  license: string;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};

let dir: string;
let bin: string;
let packed: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spgate-pack-'));
  const { stdout } = await run(NPM, ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, timeout: 180_000, maxBuffer: 16 << 20 });
  const info = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packed = info[0]!.files.map((f) => f.path);
  const project = join(dir, 'project');
  await run('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'pack-probe', version: '1.0.0', private: true }));
  await run(
    NPM,
    ['install', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', join(dir, info[0]!.filename)],
    {
      cwd: project,
      timeout: 240_000,
      maxBuffer: 16 << 20,
    },
  );
  bin = join(project, 'node_modules', 'spgate', 'bin', 'spgate.js');
}, 420_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// Every case reads the installed package and starts its own children: side by side.
describe.concurrent('the packed tarball', () => {
  it('holds compiled JavaScript, the profiles and the schemas, and no TypeScript source or test', () => {
    expect(packed).toContain('bin/spgate.js');
    expect(packed).toContain('dist/src/cli/main.js');
    expect(packed).toContain('dist/suites/auth.js');
    expect(packed).toContain('profiles/smoke.json');
    expect(packed).toContain('schemas/target.schema.json');
    expect(packed.filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))).toEqual([]);
    expect(packed.filter((p) => /^(src|test|bench)\//.test(p))).toEqual([]);
    expect(packed).toContain('LICENSE');
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(new RegExp(`^${pkg.license} License`));
  });

  it('installs with no dev dependency present', () => {
    const modules = join(dir, 'project', 'node_modules');
    for (const dev of Object.keys(pkg.devDependencies)) expect(existsSync(join(modules, dev)), dev).toBe(false);
    for (const absent of ['tsx', 'esbuild', ...Object.keys(pkg.peerDependencies)])
      expect(existsSync(join(modules, absent)), absent).toBe(false);
    const installed = JSON.parse(readFileSync(join(modules, 'spgate', 'package.json'), 'utf8')) as { repository?: { url?: string } };
    expect(installed.repository?.url).toMatch(/^git\+https:\/\//);
    expect(existsSync(join(modules, 'spgate', 'dist', 'src', 'cli', 'main.js'))).toBe(true);
  });

  it('answers --version and --help', async () => {
    const v = await runCli(['--version'], { bin, cwd: dir });
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout.trim()).toBe(pkg.version);
    const h = await runCli(['--help'], { bin, cwd: dir });
    expect(h.code, h.stderr).toBe(0);
    for (const cmd of ['run', 'conformance', 'load', 'serve', 'init']) expect(h.stdout).toContain(`spgate ${cmd}`);
    const l = await runCli(['load', '--help'], { bin, cwd: dir });
    expect(l.code, l.stderr).toBe(0);
    expect(l.stdout).toContain('--profile');
  });

  it('runs the auth suite against the embedded server', async () => {
    const r = await runCli(['conformance', '--suite', 'auth'], { bin, cwd: dir, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/checks: \d+ passed, 0 failed/);
    expect(stackFrames(r.stdout + r.stderr)).toEqual([]);
  });

  it('runs a load profile with two compiled worker processes', async () => {
    const r = await runCli(['load', '--profile', 'smoke', '--duration', '2', '--workers', '2'], { bin, cwd: dir, timeoutMs: 60_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/✓ 5xx == 0 \(actual 0\)/);
    expect(errorLines(r.stderr)).toEqual([]);
  });

  it('--metrics otlp= without the optional OpenTelemetry peers: one line naming what to install', async () => {
    const r = await runCli(
      ['load', '--profile', 'smoke', '--duration', '1', '--workers', '1', '--metrics', 'otlp=http://127.0.0.1:9/v1/metrics'],
      { bin, cwd: dir, timeoutMs: 60_000 },
    );
    expect(r.code).toBe(2);
    expect(errorLines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain('SPGATE_ERR_USAGE: --metrics otlp= needs the optional OpenTelemetry packages');
    expect(r.stderr).toContain('npm install @opentelemetry/api');
    expect(stackFrames(r.stderr)).toEqual([]);
  });

  it('refuses bad usage with one line, no stack', async () => {
    const r = await runCli(['conformance', '--suite', 'nope'], { bin, cwd: dir });
    expect(r.code).toBe(2);
    expect(errorLines(r.stderr)).toHaveLength(1);
    expect(stackFrames(r.stderr)).toEqual([]);
  });
});
