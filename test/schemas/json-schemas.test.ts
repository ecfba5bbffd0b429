/**
 * The committed JSON Schemas (schemas/) are what the zod schemas generate, and a real validator (ajv) accepts
 * every example, every built-in profile and every target file the reference server writes; a broken target
 * file is refused by the schema at the same field the loader names, so an editor shows the loader's errors.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinProfileNames, parseProfile } from '../../src/load/profile.js';
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
      const segs = e.instancePath.split('/').slice(1).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
      return formatPath(e.keyword === 'required' ? [...segs, String(e.params.missingProperty)] : segs);
    });
    const zodPath = formatPath(zod.error!.issues[0]!.path);
    expect(ajvPaths).toContain(zodPath);
  });
});
