/**
 * What a user who mistypes gets: `spgate` alone names every command (shrink included); an unknown command,
 * suite, check id, target-file field or profile field is one line with the nearest known name; and every
 * help example is a command line its command accepts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yargs, { type Argv } from 'yargs';
import { afterAll, describe, expect, it } from 'vitest';
import { splitArgs } from '../../src/action/args.js';
import { commands } from '../../src/cli/commands/index.js';
import { closestName, editDistance, fieldsAt } from '../../src/target/suggest.js';
import { TargetFile } from '../../src/target/schema.js';
import { runCli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'spgate-suggest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const oneLine = (stderr: string): string => {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0]!;
};

// Every case spawns its own children on its own files: side by side, their start-up overlaps.
describe.concurrent('did you mean', () => {
  it('edit distance counts a swap of neighbours as one edit, and offers only close names', () => {
    expect(editDistance('auth', 'auth')).toBe(0);
    expect(editDistance('authh', 'auth')).toBe(1);
    expect(editDistance('ahtu', 'auth')).toBe(2);
    expect(editDistance('cpas', 'caps')).toBe(1);
    expect(closestName('allowWrite', ['allowWrites', 'caps'])).toBe('allowWrites');
    expect(closestName('BASEURL', ['baseUrl'])).toBe('baseUrl');
    expect(closestName('xyz', ['auth', 'limits'])).toBeUndefined();
    expect(fieldsAt(TargetFile, ['tls'])).toContain('insecureSkipVerify');
    expect(fieldsAt(TargetFile, ['fixtures', 'ids', 'pools'])).toContain('customerConversations');
    expect(fieldsAt(TargetFile, ['baseUrl'])).toEqual([]);
  });

  it('spgate with no command names every command, shrink included', async () => {
    const r = await runCli([]);
    expect(r.code).toBe(2);
    const line = oneLine(r.stderr);
    for (const c of commands) expect(line).toContain(c.name);
    expect(line).toContain('shrink');
  });

  it('an unknown command', async () => {
    const r = await runCli(['shrnk', 'x.ndjson']);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/SPGATE_ERR_USAGE: unknown command "shrnk"; did you mean shrink\?/);
  });

  it('an unknown suite and an unknown check id', async () => {
    const suite = await runCli(['conformance', '--suite', 'authh', '--dry-run']);
    expect(suite.code).toBe(2);
    expect(oneLine(suite.stderr)).toContain('unknown suite "authh" (did you mean "auth"?)');
    const check = await runCli(['conformance', '--check', 'auth.expird', '--dry-run']);
    expect(check.code).toBe(2);
    expect(oneLine(check.stderr)).toContain('unknown check "auth.expird" (did you mean "auth.expired"?)');
  });

  it('a target-file field typo, at any depth, and no guess for a name that is nothing like a field', async () => {
    const write = (name: string, extra: Record<string, unknown>): string => {
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify({ baseUrl: 'http://127.0.0.1:9/v1', keys: { admin: { key: 'pk_test_x' } }, ...extra }));
      return path;
    };
    const top = await runCli(['conformance', '--target', write('top.json', { allowWrite: true }), '--dry-run']);
    expect(oneLine(top.stderr)).toContain('allowWrite: unknown field (did you mean "allowWrites"?)');
    const deep = await runCli([
      'conformance',
      '--target',
      write('deep.json', { assumptions: { statuses: { notfound: 404 } } }),
      '--dry-run',
    ]);
    expect(oneLine(deep.stderr)).toContain('assumptions.statuses.notfound: unknown field (did you mean "notFound"?)');
    const far = await runCli(['conformance', '--target', write('far.json', { zzzzzz: 1 }), '--dry-run']);
    expect(oneLine(far.stderr)).toMatch(/zzzzzz: unknown field$/);
  });

  it('a profile field typo', async () => {
    const path = join(dir, 'p.json');
    writeFileSync(
      path,
      JSON.stringify({
        name: 'p',
        description: 'x',
        model: 'closed',
        duration: 1,
        classes: { read: { routes: [{ route: 'listCustomers' }], conections: 2 } },
      }),
    );
    const r = await runCli(['load', '--profile', path, '--dry-run']);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toContain('(did you mean "connections"?)');
  });
});

describe('help examples', () => {
  it.each(commands.map((c) => c.name))('every example of %s is a command line it accepts', async (name) => {
    const cmd = await commands.find((c) => c.name === name)!.load();
    const examples: string[] = [];
    const probe = yargs([]) as Argv & { example: Argv['example'] };
    const example = probe.example.bind(probe);
    probe.example = ((command: string, description: string) => {
      examples.push(command);
      return example(command, description);
    }) as Argv['example'];
    cmd.builder(probe);
    for (const line of examples) {
      const argv = splitArgs(line.replace(/^\$0\s+/, ''));
      const parser = yargs(argv)
        .command({ command: cmd.command, describe: cmd.describe, builder: cmd.builder, handler: () => {} })
        .strict()
        .fail((msg, err) => {
          throw err ?? new Error(`${line}: ${msg}`);
        });
      await expect(parser.parseAsync(), line).resolves.toBeDefined();
    }
  });
});
