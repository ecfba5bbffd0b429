/** The report and compare commands through the real CLI (exit codes, files, one-line errors). */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeResults } from '../../src/results/io.js';
import { makeResults } from '../report/fixtures.js';
import { cliEntry } from '../support/cli.js';

function spgate(...args: string[]) {
  const r = spawnSync(process.execPath, [cliEntry(), ...args], { encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('spgate report and compare', () => {
  it('report re-renders the chosen formats; bad input is one coded line', async () => {
    const d = await mkdtemp(join(tmpdir(), 'spgate-cli-'));
    await writeResults(join(d, 'results.json'), makeResults());
    const ok = spgate('report', '--from', join(d, 'results.json'), '--out', join(d, 'out'), '--format', 'junit,md');
    expect(ok.code).toBe(0);
    expect((await readdir(join(d, 'out'))).sort()).toEqual(['junit.xml', 'summary.md']);
    const bad = spgate('report', '--from', join(d, 'results.json'), '--format', 'pdf');
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('spgate: SPGATE_ERR_USAGE: unknown --format pdf; choose from png, html, junit, ctrf, markdown, json');
    await writeFile(join(d, 'broken.json'), '{"schemaVersion":1}');
    const invalid = spgate('report', '--from', join(d, 'broken.json'));
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/^spgate: SPGATE_ERR_RESULTS_INVALID: .*broken\.json: meta: /);
    expect(invalid.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('compare exits 0 without regressions and 1 with one, and writes --json', async () => {
    const d = await mkdtemp(join(tmpdir(), 'spgate-cli-'));
    const base = makeResults();
    const head = structuredClone(base);
    // Half the answers of the open-model profile in the same time: the throughput interval falls apart.
    head.load[0]!.totals.byStatus['200'] = Math.round(head.load[0]!.totals.byStatus['200']! / 2);
    await writeResults(join(d, 'base.json'), base);
    await writeResults(join(d, 'head.json'), head);
    const same = spgate('compare', join(d, 'base.json'), join(d, 'base.json'));
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('no regressions');
    const worse = spgate('compare', join(d, 'base.json'), join(d, 'head.json'), '--json', join(d, 'cmp.json'));
    expect(worse.code).toBe(1);
    expect(worse.stdout).toMatch(/read-budget: answered throughput fell 49\.\d %/);
    const json = JSON.parse(await readFile(join(d, 'cmp.json'), 'utf8')) as { regressions: string[] };
    expect(json.regressions).toHaveLength(1);
    const lenient = spgate('compare', join(d, 'base.json'), join(d, 'head.json'), '--throughput-regression', '60');
    expect(lenient.code).toBe(0);
    const floored = spgate('compare', join(d, 'base.json'), join(d, 'head.json'), '--min-delta-rps', '100000');
    expect(floored.code).toBe(0);
    const badFlag = spgate('compare', join(d, 'base.json'), join(d, 'head.json'), '--min-samples', '-1');
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr.trim()).toBe('spgate: SPGATE_ERR_USAGE: --min-samples must be a non-negative number of samples');
    // Another profile altogether is refused in one line, nothing compared.
    const other = structuredClone(base);
    other.load = other.load.map((p) => ({ ...p, name: `${p.name}-other` }));
    await writeResults(join(d, 'other.json'), other);
    const refused = spgate('compare', join(d, 'base.json'), join(d, 'other.json'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^spgate: SPGATE_ERR_COMPARE_MISMATCH: the runs share no load profile/);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
  });
});
