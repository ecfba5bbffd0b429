/**
 * Bad input to every command that takes some (conformance, load, run, report, compare, analyze, replay):
 * unknown flags, missing files, invalid target / profile / results / trace files, unknown suites and
 * profiles, invalid base URLs. Each exits 2 with ONE line on stderr naming the problem and where (file,
 * field or flag), prints no stack trace, and sends nothing (targets point at a recording server).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startRecordingServer, type RecordingServer } from '../support/recording-server.js';
import { tempDir, writeJson, writeTarget } from '../support/target-file.js';

let rec: RecordingServer;
let dir: string;
const f: Record<string, string> = {};

beforeAll(async () => {
  rec = await startRecordingServer();
  dir = tempDir();
  f.ok = writeTarget(dir, rec.url);
  f.badTarget = writeJson(dir, 'bad-target.json', { baseUrl: rec.url, keys: { admin: { key: '' } } });
  f.unknownField = writeJson(dir, 'unknown-field.json', {
    baseUrl: rec.url,
    keys: { admin: { key: 'pk_robust_admin_0123456789' } },
    capz: {},
  });
  f.badYaml = writeJson(dir, 'bad.yaml', 'baseUrl: [unclosed\nkeys: {}\n');
  f.garbage = writeJson(dir, 'garbage.json', 'not json at all\n{');
  f.slowGarbage = writeJson(dir, 'slow-garbage.json', `[${'0,'.repeat(2_000_000)}x`);
  f.badProfile = writeJson(dir, 'bad-profile.json', {
    name: 'x',
    description: 'y',
    model: 'open',
    duration: -1,
    classes: { read: { rate: 5, routes: [{ route: 'me' }] } },
  });
  f.badResults = writeJson(dir, 'bad-results.json', { schemaVersion: 1, meta: {} });
  f.badTrace = writeJson(dir, 'bad.ndjson', '{"t":0}\n');
  f.missing = join(dir, 'missing.json');
});
afterAll(async () => {
  await rec.close();
});

type Case = [label: string, args: () => string[], code: string, mentions: () => string[]];

const CASES: Case[] = [
  // unknown flags
  ['conformance --bogus', () => ['conformance', '--bogus'], 'SPGATE_ERR_USAGE', () => ['bogus']],
  ['load --bogus', () => ['load', '--profile', 'smoke', '--bogus'], 'SPGATE_ERR_USAGE', () => ['bogus']],
  ['run --bogus', () => ['run', '--bogus'], 'SPGATE_ERR_USAGE', () => ['bogus']],
  ['report --bogus', () => ['report', '--from', f.missing!, '--bogus'], 'SPGATE_ERR_USAGE', () => ['bogus']],
  ['compare --bogus', () => ['compare', f.missing!, f.missing!, '--bogus'], 'SPGATE_ERR_USAGE', () => ['bogus']],
  ['analyze --bogus', () => ['analyze', f.missing!, '--bogus'], 'SPGATE_ERR_USAGE', () => ['bogus']],
  ['replay --bogus', () => ['replay', f.missing!, '--bogus'], 'SPGATE_ERR_USAGE', () => ['bogus']],
  ['load without --profile', () => ['load'], 'SPGATE_ERR_USAGE', () => ['profile']],
  ['compare with one file', () => ['compare', f.missing!], 'SPGATE_ERR_USAGE', () => ['arguments']],
  ['conformance --runs abc', () => ['conformance', '--target', f.ok!, '--runs', 'abc'], 'SPGATE_ERR_USAGE', () => ['--runs']],
  // missing files
  [
    'conformance: missing target',
    () => ['conformance', '--target', f.missing!],
    'SPGATE_ERR_FILE_NOT_FOUND',
    () => [f.missing!, 'not found'],
  ],
  ['load: missing target', () => ['load', '--profile', 'smoke', '--target', f.missing!], 'SPGATE_ERR_FILE_NOT_FOUND', () => [f.missing!]],
  ['run: missing target', () => ['run', '--target', f.missing!, '--out', join(dir, 'r')], 'SPGATE_ERR_FILE_NOT_FOUND', () => [f.missing!]],
  ['report: missing results', () => ['report', '--from', f.missing!], 'SPGATE_ERR_FILE_NOT_FOUND', () => [f.missing!]],
  ['compare: missing results', () => ['compare', f.missing!, f.missing!], 'SPGATE_ERR_FILE_NOT_FOUND', () => [f.missing!]],
  ['analyze: missing trace', () => ['analyze', f.missing!], 'SPGATE_ERR_FILE_NOT_FOUND', () => [f.missing!]],
  ['replay: missing trace', () => ['replay', f.missing!, '--target', f.ok!], 'SPGATE_ERR_FILE_NOT_FOUND', () => [f.missing!]],
  // invalid target files
  [
    'conformance: empty key',
    () => ['conformance', '--target', f.badTarget!],
    'SPGATE_ERR_TARGET_INVALID',
    () => [f.badTarget!, 'keys.admin.key'],
  ],
  [
    'load: unknown field',
    () => ['load', '--profile', 'smoke', '--target', f.unknownField!],
    'SPGATE_ERR_TARGET_INVALID',
    () => [f.unknownField!, 'capz', 'unknown field'],
  ],
  [
    'run: YAML syntax error',
    () => ['run', '--target', f.badYaml!, '--out', join(dir, 'r')],
    'SPGATE_ERR_TARGET_INVALID',
    () => [f.badYaml!, 'line'],
  ],
  [
    'replay: the trace is checked before the target file',
    () => ['replay', f.badTrace!, '--target', f.garbage!],
    'SPGATE_ERR_TRACE_INVALID',
    () => [f.badTrace!],
  ],
  [
    'conformance: target not JSON',
    () => ['conformance', '--target', f.garbage!],
    'SPGATE_ERR_TARGET_INVALID',
    () => [f.garbage!, 'line 1, column'],
  ],
  // invalid profile, results and trace files
  [
    'load: invalid profile',
    () => ['load', '--profile', f.badProfile!, '--target', f.ok!],
    'SPGATE_ERR_PROFILE_INVALID',
    () => [f.badProfile!, 'duration'],
  ],
  [
    'load: profile not JSON',
    () => ['load', '--profile', f.garbage!, '--target', f.ok!],
    'SPGATE_ERR_PROFILE_INVALID',
    () => [f.garbage!, 'line 1, column'],
  ],
  ['report: invalid results', () => ['report', '--from', f.badResults!], 'SPGATE_ERR_RESULTS_INVALID', () => [f.badResults!]],
  [
    'compare: results not JSON',
    () => ['compare', f.garbage!, f.badResults!],
    'SPGATE_ERR_RESULTS_INVALID',
    () => [f.garbage!, 'line 1, column'],
  ],
  [
    // The base takes longer to find bad (4 MB read before the garbage) than the head: it is still the one named.
    'compare: both results bad, the base named',
    () => ['compare', f.slowGarbage!, f.badResults!],
    'SPGATE_ERR_RESULTS_INVALID',
    () => [f.slowGarbage!],
  ],
  ['analyze: invalid trace', () => ['analyze', f.badTrace!], 'SPGATE_ERR_TRACE_INVALID', () => [f.badTrace!, ':1']],
  ['analyze: trace not JSON', () => ['analyze', f.garbage!], 'SPGATE_ERR_TRACE_INVALID', () => [f.garbage!]],
  // unknown suite and profile
  [
    'conformance: unknown suite',
    () => ['conformance', '--target', f.ok!, '--suite', 'nope'],
    'SPGATE_ERR_SUITE_UNKNOWN',
    () => ['"nope"', 'auth'],
  ],
  [
    'load: unknown profile',
    () => ['load', '--profile', 'nope', '--target', f.ok!],
    'SPGATE_ERR_PROFILE_UNKNOWN',
    () => ['"nope"', 'smoke'],
  ],
  // invalid base URLs (file and override; with and without a target file)
  [
    'conformance: --base-url ftp',
    () => ['conformance', '--target', f.ok!, '--base-url', 'ftp://example.invalid/v1'],
    'SPGATE_ERR_BASE_URL_INVALID',
    () => ['--base-url'],
  ],
  [
    'conformance: --base-url on the embedded server',
    () => ['conformance', '--base-url', 'not a url'],
    'SPGATE_ERR_BASE_URL_INVALID',
    () => ['--base-url'],
  ],
  [
    'load: --base-url on the embedded server',
    () => ['load', '--profile', 'smoke', '--base-url', 'notaurl'],
    'SPGATE_ERR_BASE_URL_INVALID',
    () => ['--base-url'],
  ],
  [
    'run: --base-url',
    () => ['run', '--target', f.ok!, '--base-url', 'notaurl', '--out', join(dir, 'r')],
    'SPGATE_ERR_BASE_URL_INVALID',
    () => ['--base-url'],
  ],
  [
    'replay: --base-url without --target',
    () => ['replay', f.badTrace!, '--base-url', 'http://127.0.0.1:1/v1'],
    'SPGATE_ERR_USAGE',
    () => ['--base-url', '--target'],
  ],
  [
    'load: baseUrl with credentials',
    () => [
      'load',
      '--profile',
      'smoke',
      '--target',
      writeJson(dir, 'creds.json', { baseUrl: 'http://u:p@127.0.0.1:1/v1', keys: { admin: { key: 'pk_robust_admin_0123456789' } } }),
    ],
    'SPGATE_ERR_BASE_URL_INVALID',
    () => ['baseUrl', 'credentials'],
  ],
];

describe.concurrent('bad input: exit 2, one line naming the problem and where, nothing sent', () => {
  it.each(CASES)('%s', async (_label, args, code, mentions) => {
    const before = rec.requests.length;
    const run = await runCli(args(), { timeoutMs: 30_000 });
    expect(run.timedOut, `hung:\n${run.stderr}`).toBe(false);
    expect(run.code, run.stderr).toBe(2);
    const lines = run.stderr.split('\n').filter((l) => l.trim() !== '');
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^spgate: ${code}: \\S`));
    for (const m of mentions()) expect(lines[0]).toContain(m);
    expect(run.stdout).not.toMatch(/^\s+at /m);
    expect(lines[0]!.length).toBeLessThan(400);
    expect(rec.requests.length).toBe(before);
  });
});
