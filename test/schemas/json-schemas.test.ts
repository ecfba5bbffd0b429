/**
 * The committed JSON Schemas (schemas/) are what the zod schemas generate, and a real validator (ajv) accepts
 * every example, every built-in profile and every target file the reference server writes; a broken target
 * file is refused by the schema at the same field the loader names, so an editor shows the loader's errors.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { builtinProfileNames, loadProfile, parseProfile } from '../../src/load/profile.js';
import { resolveTarget } from '../../src/target/resolve.js';
import { DIALECT_NAMES, startReferenceServer } from '../../src/reference/index.js';
import { JSON_SCHEMAS, SCHEMAS_DIR, renderJsonSchema, schemaReference } from '../../src/schemas/json-schemas.js';
import { TargetFile } from '../../src/target/schema.js';
import { formatPath } from '../../src/target/issues.js';
import { schemaValidator } from '../support/json-schema.js';

const ROOT = join(SCHEMAS_DIR, '..');
const json = (path: string): Record<string, unknown> => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as Record<string, unknown>;
const target = schemaValidator('target.schema.json');
const profile = schemaValidator('profile.schema.json');

describe('JSON Schemas', () => {
  it.each(JSON_SCHEMAS.map((e) => e.file))('schemas/%s is what the zod schema generates (run npm run schemas)', (file) => {
    const entry = JSON_SCHEMAS.find((e) => e.file === file)!;
    expect(readFileSync(join(SCHEMAS_DIR, file), 'utf8')).toBe(renderJsonSchema(entry));
  });

  it('accepts the example target file, which names its schema', () => {
    const example = json('examples/staging.target.json');
    expect(example.$schema).toBe(schemaReference(join(ROOT, 'examples/staging.target.json'), 'target.schema.json'));
    expect(target(example)).toEqual([]);
  });

  it.each(builtinProfileNames())('accepts the built-in profile %s, which names its schema', (name) => {
    const p = json(`profiles/${name}.json`);
    expect(p.$schema).toBe('../schemas/profile.schema.json');
    expect(profile(p)).toEqual([]);
    expect(() => parseProfile(p, name)).not.toThrow();
  });

  it.each(DIALECT_NAMES)('accepts the target file the reference server writes (dialect %s)', async (dialect) => {
    const server = await startReferenceServer({ seed: 3, dialect });
    try {
      expect(target(JSON.parse(JSON.stringify(server.describe())))).toEqual([]);
    } finally {
      await server.close();
    }
  });

  const valid = (): Record<string, unknown> => ({ baseUrl: 'https://api.example.com/v1', keys: { admin: { key: 'env:SPGATE_KEY' } } });
  const broken: Array<[string, (t: Record<string, unknown>) => void]> = [
    ['an unknown top-level field', (t) => (t.allowWrite = true)],
    ['an unknown key role', (t) => ((t.keys as Record<string, unknown>).superuser = { key: 'env:X' })],
    ['an empty key', (t) => ((t.keys as Record<string, Record<string, unknown>>).admin!.key = '')],
    ['a string where a boolean belongs', (t) => (t.allowWrites = 'yes')],
    ['a non-integer pool revision', (t) => (t.fixtures = { ids: { pools: { collections: [{ id: 'c1', revision: 1.5 }] } } })],
    ['a missing baseUrl', (t) => delete t.baseUrl],
    ['a negative cap', (t) => (t.caps = { maxRps: -1 })],
  ];
  it.each(broken)('refuses %s where the loader does, at the same field', (_what, breakIt) => {
    const data = valid();
    expect(target(data)).toEqual([]);
    breakIt(data);
    const errors = target(data);
    const zod = TargetFile.safeParse(data);
    expect(zod.success).toBe(false);
    expect(errors.length).toBeGreaterThan(0);
    // ajv names the field as a JSON pointer (a missing one by its parent and params.missingProperty); the loader as a dotted path.
    const ajvPaths = errors.map((e) => {
      const segs = e.instancePath
        .split('/')
        .slice(1)
        .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
      return formatPath(e.keyword === 'required' ? [...segs, String(e.params.missingProperty)] : segs);
    });
    const zodPath = formatPath(zod.error!.issues[0]!.path);
    expect(ajvPaths).toContain(zodPath);
  });

  /** Paths of the properties (at any depth) that have no description. */
  const undescribed = (node: unknown, path = ''): string[] => {
    if (!node || typeof node !== 'object') return [];
    const n = node as Record<string, unknown>;
    const props = (n.properties ?? {}) as Record<string, Record<string, unknown>>;
    const own = Object.entries(props).flatMap(([k, v]) => [
      ...(typeof v.description === 'string' && v.description ? [] : [`${path}.${k}`]),
      ...undescribed(v, `${path}.${k}`),
    ]);
    const nested = ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties'].flatMap((k) => {
      const x = n[k];
      return Array.isArray(x) ? x.flatMap((e) => undescribed(e, path)) : undescribed(x, path);
    });
    return [...own, ...nested];
  };

  it.each(JSON_SCHEMAS.map((e) => e.file))('schemas/%s has an $id and a description on every property, at every depth', (file) => {
    const schema = json(`schemas/${file}`);
    expect(schema.$id).toMatch(/^urn:spgate:schema:/);
    expect(undescribed(schema)).toEqual([]);
    expect(undescribed({ properties: { x: {} } })).toEqual(['.x']); // the walk does find a bare property
  });

  const env = { SPGATE_KEY: 'pk_test_1' };
  const tls = (t: Record<string, unknown>, block: Record<string, unknown>): void => {
    t.tls = block;
  };
  const refusedByLoader: Array<[string, (t: Record<string, unknown>) => void]> = [
    ['an ftp:// base URL', (t) => (t.baseUrl = 'ftp://api.example.com/v1')],
    ['a base URL with credentials', (t) => (t.baseUrl = 'https://user:secret@api.example.com/v1')],
    ['a relative base URL', (t) => (t.baseUrl = '/v1')],
    ['tls.cert without key', (t) => tls(t, { cert: 'client.pem' })],
    ['tls.key without cert', (t) => tls(t, { key: 'client.key' })],
    ['an ftp:// fixtures API', (t) => (t.fixtures = { api: 'ftp://fixtures.example.com' })],
  ];
  it.each(refusedByLoader)('the schema refuses %s, as the loader does', (_what, breakIt) => {
    const data = { ...valid(), caps: { maxRps: 5 } };
    expect(target(data)).toEqual([]);
    expect(() => resolveTarget(data, 't.json', { env })).not.toThrow();
    breakIt(data);
    expect(target(data).length).toBeGreaterThan(0);
    expect(() => resolveTarget(data, 't.json', { env })).toThrow();
  });

  const acceptedByLoader: Array<[string, (t: Record<string, unknown>) => void]> = [
    ['an http loopback base URL with a port', (t) => (t.baseUrl = 'http://127.0.0.1:8080/v1')],
    ['an upper-case scheme', (t) => (t.baseUrl = 'HTTPS://api.example.com/v1')],
    ['an IPv6 base URL', (t) => (t.baseUrl = 'https://[::1]:8443/v1')],
    ['tls.cert with its key', (t) => tls(t, { cert: 'client.pem', key: 'client.key', ca: ['ca.pem'] })],
    ['an http fixtures API', (t) => (t.fixtures = { api: 'http://127.0.0.1:9000/_fixtures' })],
  ];
  it.each(acceptedByLoader)('the schema accepts %s, as the loader does', (_what, change) => {
    const data = { ...valid(), caps: { maxRps: 5 } };
    change(data);
    expect(target(data)).toEqual([]);
    expect(() => resolveTarget(data, 't.json', { env })).not.toThrow();
  });
});

describe('YAML profiles ("profiles alike")', () => {
  it('a built-in profile written as YAML loads as its JSON does, and the schema accepts it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spgate-profile-'));
    try {
      for (const name of ['smoke', 'capacity']) {
        const data = json(`profiles/${name}.json`);
        const path = join(dir, `${name}.yaml`);
        writeFileSync(path, `# yaml-language-server: $schema=../schemas/profile.schema.json\n${stringify(data)}`);
        expect(loadProfile(path)).toEqual(loadProfile(name));
        expect(profile(data)).toEqual([]);
      }
      const yml = join(dir, 'typo.yml');
      writeFileSync(
        yml,
        'name: typo\ndescription: x\nmodel: closed\nduration: 5\nclasses:\n  read:\n    connections: 2\n    routes:\n      - route: [\n',
      );
      expect(() => loadProfile(yml)).toThrow(
        new RegExp(`^${yml.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not YAML: line \\d+, column \\d+: `),
      );
      const bad = join(dir, 'bad.yaml');
      writeFileSync(
        bad,
        'name: bad\ndescription: x\nmodel: closed\nduration: 5\nclasses:\n  read:\n    routes: [{ route: listCustomers }]\n',
      );
      expect(() => loadProfile(bad)).toThrow('classes.read.connections: the closed model needs connections');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
