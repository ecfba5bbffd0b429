/**
 * End-to-end: the run pipeline against the embedded reference server (one suite, one budget profile,
 * shortened), its report opened in Chromium (skipped with the reason where Chromium is missing), and the
 * real CLI interrupted with SIGINT mid-run.
 */
import { spawn } from 'node:child_process';
import { lstat, mkdtemp, readFile, readdir, readlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPipeline } from '../../src/run/pipeline.js';
import { createProgress } from '../../src/run/progress.js';
import { readResults } from '../../src/results/io.js';
import { CHROMIUM_ARGS, inspectReport } from '../report/inspect.js';
import { CHROMIUM, chromiumPart, need } from '../support/optional.js';
import { cliEntry } from '../support/cli.js';

const quiet = createProgress({ write: () => true }, { live: false });

// The pipeline (in this process) and the interrupted CLI (a child) share nothing: the two describes run side by
// side, the pipeline's cases in order (the browser opens the first one's page).
describe.concurrent('spgate run pipeline (embedded reference server)', () => {
  // The first test's run directory, which the browser test opens (tests in a file run in order); set as soon
  // as the pipeline returns, so a failed assertion there does not also hide what the page looks like.
  let runDir: string | undefined;

  it.sequential('writes results.json, every report and latest; the budget profile crosses two windows', async () => {
    const out = await mkdtemp(join(tmpdir(), 'spgate-run-'));
    const ac = new AbortController();
    const r = await runPipeline({
      seed: 11,
      runs: 5,
      outBase: out,
      command: 'spgate run (test)',
      signal: ac.signal,
      progress: quiet,
      suites: ['errors'],
      profiles: ['read-budget', 'write-budget'],
      // 3 s of each budget profile against the phases' 2 s windows: past one boundary by a whole second.
      durationScale: 0.6,
    });
    runDir = r.runDir;
    const files = await readdir(r.runDir);
    for (const f of ['results.json', 'index.html', 'junit.xml', 'ctrf.json', 'summary.md']) expect(files).toContain(f);
    expect(r.render.outcomes.every((o) => o.status === 'written')).toBe(true);
    expect((await lstat(join(out, 'latest'))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(out, 'latest'))).toBe(r.runDir.split('/').pop());
    const saved = await readResults(join(r.runDir, 'results.json'));
    expect(saved).toEqual(r.results);
    expect(saved.meta.target.embedded).toBe(true);
    expect(saved.checks.length).toBeGreaterThan(0);
    expect(saved.checks.every((c) => c.suite === 'errors')).toBe(true);
    expect(saved.load.map((p) => p.name)).toEqual(['read-budget', 'write-budget']);
    for (const p of saved.load) {
      expect(p.totals.byStatus['429'] ?? 0).toBeGreaterThan(0);
      const cls = p.rateLimit.classes.find((c) => c.refused > 0)!;
      expect(cls.windows.length).toBeGreaterThanOrEqual(2);
    }
    // No secret of the embedded server's keys reaches any file.
    const html = await readFile(join(r.runDir, 'index.html'), 'utf8');
    expect(html).not.toMatch(/Bearer pk_/);
    expect(await readFile(join(r.runDir, 'results.json'), 'utf8')).not.toMatch(/"pk_[A-Za-z0-9_]{8,}/);
  });

  it.sequential("the run's page draws every chart in Chromium, without errors or network requests", async (ctx) => {
    need(ctx, chromiumPart());
    expect(runDir, 'the pipeline of the test above did not return').toBeDefined();
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    try {
      const insp = await inspectReport(browser, join(runDir!, 'index.html'), resolve('test-artifacts/report-run.png'));
      expect(insp.problems).toEqual([]);
      expect(insp.requests).toEqual([]);
      expect(insp.canvases.length).toBe(10);
      for (const c of insp.canvases) expect(c.drawn, `canvas ${c.id}`).toBeGreaterThan(1000);
      await insp.page.close();
    } finally {
      await browser.close();
    }
  });
});

describe.concurrent('spgate run CLI', () => {
  it('on SIGINT stops, writes partial results marked aborted, renders reports and exits 3', async () => {
    const out = await mkdtemp(join(tmpdir(), 'spgate-run-sig-'));
    const child = spawn(process.execPath, [cliEntry(), 'run', '--out', out, '--seed', '5', '--runs', '3'], {
      env: { ...process.env, CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const sent = new Promise<void>((res) => {
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (stderr.includes('conformance: started') && !child.killed) {
          child.kill('SIGINT');
          res();
        }
      });
    });
    const code = await new Promise<number | null>((res) => child.on('close', (c) => res(c)));
    await sent;
    expect(code, stderr).toBe(3);
    expect(stderr).toContain('SIGINT received');
    const latest = join(out, 'latest');
    const r = await readResults(join(latest, 'results.json'));
    expect(r.meta.aborted).toBe(true);
    expect(r.verdict).toBe('aborted');
    expect(r.meta.abortReason).toBe('interrupted by SIGINT');
    expect(r.load).toEqual([]);
    expect(await readdir(latest)).toContain('index.html');
    expect(stdout).toContain('verdict: ABORTED');
  });
});
