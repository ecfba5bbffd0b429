import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SpgateError, type SpgateErrorCode } from '../../src/errors.js';
import { loadTarget, targetFromInput } from '../../src/target/load.js';
import { isLoopbackHost } from '../../src/target/loopback.js';

const dir = mkdtempSync(join(tmpdir(), 'spgate-target-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(content: unknown, ext = '.json'): string {
  const path = join(dir, `t${++n}${ext}`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

const local = { baseUrl: 'http://127.0.0.1:8080/v1', keys: { admin: { key: 'pk_local_admin_1234' } } };

async function failure(p: Promise<unknown>): Promise<{ code: SpgateErrorCode; message: string }> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(SpgateError);
    const e = err as SpgateError;
    expect(e.message).not.toContain('\n');
    return { code: e.code, message: e.message };
  }
  throw new Error('expected the load to fail');
}

describe('loadTarget', () => {
  it('loads a minimal loopback file with every default filled in', async () => {
    const t = await loadTarget(file({ ...local, baseUrl: 'http://127.0.0.1:8080/v1/' }));
    expect(t.baseUrl).toBe('http://127.0.0.1:8080/v1');
    expect(t.loopback).toBe(true);
    expect(t.secrets).toEqual({ admin: 'pk_local_admin_1234' });
    expect(t.assumptions.resolvePath).toBe('/conversations/{conversationId}/resolve');
    expect(t.assumptions.params.search).toBe('q');
    expect(t.fixtures.ids).toEqual({});
    expect(t.allowWrites).toBe(false);
    expect(t.caps).toEqual({});
    expect(t.warnings).toEqual([]);
    expect(t.name).toBe('target');
  });

  it('reads YAML by extension', async () => {
    const t = await loadTarget(
      file('baseUrl: http://localhost:9/v1\nkeys:\n  admin: { key: pk_yaml_key_123 }\nallowWrites: true\n', '.yaml'),
    );
    expect(t.allowWrites).toBe(true);
    expect(t.loopback).toBe(true);
  });

  it('names the file and the field path of a validation problem, in one line', async () => {
    const cases: Array<[unknown, string]> = [
      [{ ...local, keys: { admin: { key: '' } } }, 'keys.admin.key: key must not be empty'],
      [{ baseUrl: local.baseUrl, keys: {} }, 'keys.admin: required'],
      [{ ...local, keys: { ...local.keys, adminn: { key: 'pk_x_12345' } } }, 'keys.adminn: unknown field'],
      [{ ...local, allowWrites: 'yes' }, 'allowWrites: must be a boolean'],
      [{ ...local, baseUrl: 'ftp://x/v1' }, 'baseUrl: must be an absolute http(s) URL ending in /v1'],
      [{ ...local, assumptions: { customerDeleteStatus: [204, 'x'] } }, 'assumptions.customerDeleteStatus[1]: must be a number'],
      [{ ...local, keys: { admin: { key: 'pk_x_12345', scopes: ['customers:delete'] } } }, 'keys.admin.scopes[0]: must be one of'],
    ];
    for (const [content, expected] of cases) {
      const path = file(content);
      const f = await failure(loadTarget(path));
      expect(f.code).toBe('SPGATE_ERR_TARGET_INVALID');
      expect(f.message.startsWith(`${path}: ${expected}`)).toBe(true);
    }
  });

  it('reports JSON syntax errors with line and column, never quoting the file', async () => {
    const path = file('{\n  "baseUrl": "http://127.0.0.1/v1",\n  "keys": { "admin": { "key": pk_inline_secret_99 } }\n}');
    const f = await failure(loadTarget(path));
    expect(f.code).toBe('SPGATE_ERR_TARGET_INVALID');
    expect(f.message).toMatch(
      new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: invalid JSON at line 3, column 31: Unexpected token 'p'$`),
    );
    expect(f.message).not.toContain('pk_inline_secret_99');
    const trailing = await failure(loadTarget(file('{ "a": 1,\n}')));
    expect(trailing.message).toContain('line 2, column 1');
  });

  it('reports YAML syntax errors with line and column', async () => {
    const f = await failure(loadTarget(file('baseUrl: http://127.0.0.1/v1\nkeys:\n  admin: { key: [unclosed\n', '.yml')));
    expect(f.code).toBe('SPGATE_ERR_TARGET_INVALID');
    expect(f.message).toMatch(/\.yml: line \d+, column \d+: /);
  });

  it('a missing file is SPGATE_ERR_FILE_NOT_FOUND', async () => {
    const f = await failure(loadTarget(join(dir, 'nope.json')));
    expect(f).toEqual({ code: 'SPGATE_ERR_FILE_NOT_FOUND', message: `${join(dir, 'nope.json')}: file not found` });
  });

  it('resolves env: keys from the given environment; an unset variable names the role and the variable', async () => {
    const path = file({ ...local, keys: { admin: { key: 'env:SPG_ADMIN' }, readOnly: { key: 'env:SPG_RO' } } });
    const t = await loadTarget(path, { env: { SPG_ADMIN: 'pk_from_env_1', SPG_RO: ' pk_from_env_2 ' } });
    expect(t.secrets).toEqual({ admin: 'pk_from_env_1', readOnly: 'pk_from_env_2' });
    expect(t.keys.admin.key).toBe('pk_from_env_1');
    const f = await failure(loadTarget(path, { env: { SPG_ADMIN: 'pk_from_env_1' } }));
    expect(f).toEqual({ code: 'SPGATE_ERR_KEY_ENV_MISSING', message: `${path}: keys.readOnly: environment variable SPG_RO is not set` });
    const bad = await failure(loadTarget(file({ ...local, keys: { admin: { key: 'env:1X' } } }), { env: {} }));
    expect(bad.code).toBe('SPGATE_ERR_TARGET_INVALID');
  });

  it('names every unset key variable in one line; a dry run (placeholder) warns once and goes on', async () => {
    const path = file({
      ...local,
      keys: { admin: { key: 'env:SPG_ADMIN' }, readOnly: { key: 'env:SPG_RO' }, expired: { key: 'env:SPG_EXP' } },
    });
    const f = await failure(loadTarget(path, { env: { SPG_RO: 'pk_ro' } }));
    expect(f).toEqual({
      code: 'SPGATE_ERR_KEY_ENV_MISSING',
      message: `${path}: environment variables not set: SPG_ADMIN (keys.admin), SPG_EXP (keys.expired)`,
    });
    const dry = await loadTarget(path, { env: { SPG_RO: 'pk_ro' }, unsetKeys: 'placeholder' });
    expect(Object.keys(dry.secrets).sort()).toEqual(['admin', 'expired', 'readOnly']);
    expect(dry.secrets.readOnly).toBe('pk_ro');
    expect(dry.warnings.filter((w) => w.includes('not set'))).toEqual([
      'environment variables not set: SPG_ADMIN (keys.admin), SPG_EXP (keys.expired) (a dry run needs none; a real run needs every one)',
    ]);
  });

  it('a non-loopback target must state caps.maxRps', async () => {
    const remote = { ...local, baseUrl: 'https://api.example.com/v1' };
    const f = await failure(loadTarget(file(remote)));
    expect(f.code).toBe('SPGATE_ERR_CAPS_REQUIRED');
    expect(f.message).toContain('caps.maxRps');
    const t = await loadTarget(file({ ...remote, caps: { maxRps: 5 } }));
    expect(t.loopback).toBe(false);
    expect(t.caps.maxRps).toBe(5);
  });

  it('--base-url overrides the file, is validated, and decides loopback and caps', async () => {
    const path = file(local);
    const t = await loadTarget(path, { baseUrlOverride: 'http://[::1]:7000/v1/' });
    expect(t.baseUrl).toBe('http://[::1]:7000/v1');
    expect(t.loopback).toBe(true);
    expect((await failure(loadTarget(path, { baseUrlOverride: 'not a url' }))).code).toBe('SPGATE_ERR_BASE_URL_INVALID');
    expect((await failure(loadTarget(path, { baseUrlOverride: 'https://user:pw@h.example/v1' }))).code).toBe('SPGATE_ERR_BASE_URL_INVALID');
    expect((await failure(loadTarget(path, { baseUrlOverride: 'https://proxy.example/v1' }))).code).toBe('SPGATE_ERR_CAPS_REQUIRED');
  });

  it('warns about plain http to a remote host and a base URL without /v1', async () => {
    const t = await loadTarget(file({ ...local, baseUrl: 'http://api.example.com/api', caps: { maxRps: 1 } }));
    expect(t.warnings).toHaveLength(2);
    expect(t.warnings.join('\n')).toMatch(/does not end in \/v1/);
    expect(t.warnings.join('\n')).toMatch(/plain http/);
  });

  it('warns about inline keys in a git-tracked file, not about env: keys or untracked files', async () => {
    const repo = mkdtempSync(join(dir, 'repo-'));
    const remote = { ...local, baseUrl: 'https://api.example.com/v1', caps: { maxRps: 1 } };
    writeFileSync(join(repo, 'tracked.json'), JSON.stringify(remote));
    writeFileSync(join(repo, 'untracked.json'), JSON.stringify(remote));
    writeFileSync(join(repo, 'env.json'), JSON.stringify({ ...remote, keys: { admin: { key: 'env:X_KEY' } } }));
    let git = true;
    try {
      execFileSync('git', ['init', '-q'], { cwd: repo, stdio: 'ignore' });
      execFileSync('git', ['add', 'tracked.json', 'env.json'], { cwd: repo, stdio: 'ignore' });
    } catch {
      git = false; // without git the warning cannot be computed; loading must still work
    }
    const tracked = await loadTarget(join(repo, 'tracked.json'));
    if (git) expect(tracked.warnings.some((w) => w.includes('tracked by git') && w.includes('admin'))).toBe(true);
    expect((await loadTarget(join(repo, 'untracked.json'))).warnings).toEqual([]);
    expect((await loadTarget(join(repo, 'env.json'), { env: { X_KEY: 'pk_env_key_1' } })).warnings).toEqual([]);
  });

  it('loads the shipped example with its env: keys', async () => {
    const env = {
      SPGATE_STAGING_ADMIN_KEY: 'pk_1234',
      SPGATE_STAGING_READONLY_KEY: 'pk_5678',
      SPGATE_STAGING_NO_ATTACHMENTS_KEY: 'pk_9012',
      SPGATE_STAGING_ATTACHMENTS_ONLY_KEY: 'pk_3456',
      SPGATE_STAGING_OTHER_WORKSPACE_KEY: 'pk_7890',
    };
    const t = await loadTarget('examples/staging.target.json', { env });
    expect(t.loopback).toBe(false);
    expect(Object.keys(t.secrets).sort()).toEqual(['admin', 'attachmentsOnly', 'noAttachments', 'otherWorkspace', 'readOnly']);
    expect((await failure(loadTarget('examples/staging.target.json', { env: {} }))).code).toBe('SPGATE_ERR_KEY_ENV_MISSING');
  });
});

describe('targetFromInput', () => {
  it('builds a Target from memory and names the source in errors', () => {
    const t = targetFromInput({ ...local, name: 'reference' }, 'embedded');
    expect(t.source).toBe('embedded');
    expect(t.name).toBe('reference');
    expect(() => targetFromInput({ baseUrl: local.baseUrl, keys: { admin: { key: '' } } }, 'embedded')).toThrow(
      /^embedded: keys\.admin\.key: /,
    );
  });
});

describe('isLoopbackHost', () => {
  it.each([
    ['localhost', true],
    ['api.localhost', true],
    ['127.0.0.1', true],
    ['127.255.1.2', true],
    ['[::1]', true],
    ['[::ffff:7f00:1]', true],
    ['[0:0:0:0:0:0:0:1]', true],
    ['128.0.0.1', false],
    ['10.0.0.1', false],
    ['[::2]', false],
    ['localhost.example.com', false],
    ['example.com', false],
    ['[::ffff:a00:1]', false],
  ])('%s → %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });

  it('agrees with the URL parser on mapped IPv4', () => {
    expect(isLoopbackHost(new URL('http://[::ffff:127.0.0.1]/').hostname)).toBe(true);
  });
});
