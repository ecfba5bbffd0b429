/**
 * `--dry-run` sends nothing, so it needs no key: the README's example (`spgate run --target
 * examples/staging.target.json --dry-run`, with none of the file's key variables set) names every unset
 * variable in one warning line and goes on to print the plan of every phase; a real run refuses the same
 * file in one line naming them all, before anything is sent.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const ROOT = join(import.meta.dirname, '../..');
const NAMES = [
  'SPGATE_STAGING_ADMIN_KEY',
  'SPGATE_STAGING_READONLY_KEY',
  'SPGATE_STAGING_NO_ATTACHMENTS_KEY',
  'SPGATE_STAGING_ATTACHMENTS_ONLY_KEY',
  'SPGATE_STAGING_OTHER_WORKSPACE_KEY',
];
const unset = Object.fromEntries(NAMES.map((n) => [n, '']));

describe('--dry-run without the keys', () => {
  it("the README's example lists every unset variable at once and prints the plan", async () => {
    const r = await runCli(['run', '--target', 'examples/staging.target.json', '--dry-run', '--seed', '1'], { cwd: ROOT, env: unset });
    expect(r.code, r.stderr).toBe(0);
    const warnings = r.stdout.split('\n').filter((l) => l.startsWith('warning: environment variables not set'));
    expect(warnings).toHaveLength(1);
    for (const n of NAMES) expect(warnings[0]).toContain(n);
    expect(r.stdout).toContain('dry run: nothing is sent to https://api.staging.example.com/v1');
    expect(r.stdout).toMatch(/^phase 1 — conformance: /m);
    expect(r.stdout).toMatch(/^phase 2 — /m);
  });

  it('conformance --dry-run does too (the warning on stderr)', async () => {
    const r = await runCli(['conformance', '--target', 'examples/staging.target.json', '--dry-run', '--suite', 'auth'], {
      cwd: ROOT,
      env: unset,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('warning: environment variables not set'))).toHaveLength(1);
    expect(r.stdout).toContain('suite auth');
  });

  it('a real run refuses in one line naming them all', async () => {
    const r = await runCli(['conformance', '--target', 'examples/staging.target.json', '--suite', 'auth'], {
      cwd: ROOT,
      env: { ...unset, SPGATE_STAGING_READONLY_KEY: 'pk_x' },
    });
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /SPGATE_ERR_KEY_ENV_MISSING: .*environment variables not set: SPGATE_STAGING_ADMIN_KEY \(keys\.admin\), SPGATE_STAGING_NO_ATTACHMENTS_KEY/,
    );
    expect(lines[0]).not.toContain('SPGATE_STAGING_READONLY_KEY');
  });
});
