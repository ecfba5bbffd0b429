/**
 * docs/conformance.md lists every check of all suites with its clause, basis and needs, exactly as the
 * catalogue derives them; docs/target-file.md documents every fixture field a check reads.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SUITES } from '../../suites/index.js';
import { checkRow } from '../../src/conformance/catalogue.js';
import { NEEDS } from '../../src/conformance/fixtures/needs.js';

const doc = readFileSync(new URL('../../docs/conformance.md', import.meta.url), 'utf8');
const targetDoc = readFileSync(new URL('../../docs/target-file.md', import.meta.url), 'utf8');
const lines = new Set(doc.split('\n'));

describe('docs/conformance.md', () => {
  it('has a row per check of every suite: id, clause, basis, needs and title as the catalogue says', () => {
    const missing = SUITES.flatMap((s) => s.checks)
      .map(checkRow)
      .filter((row) => !lines.has(row));
    expect(missing).toEqual([]);
  });

  it('lists no check that does not exist', () => {
    const ids = new Set(SUITES.flatMap((s) => s.checks.map((c) => c.id)));
    const rows = [...lines].filter((l) => /^\| [a-z]+\.[a-z0-9.-]+ \| /.test(l)).map((l) => l.split(' | ')[0]!.slice(2));
    expect(rows.filter((id) => !ids.has(id))).toEqual([]);
  });
});

describe('docs/target-file.md', () => {
  it('documents every fixture field a check can need', () => {
    const fields = [...new Set(Object.values(NEEDS).map((n) => n.field.replace('fixtures.ids.', '').split('.').pop()!))];
    expect(fields.filter((f) => !targetDoc.includes(`\`${f}\``))).toEqual([]);
  });

  it('documents the fixtures.command contract', () => {
    expect(targetDoc).toMatch(/### fixtures\.command/);
    for (const word of ['stdin', 'stdout', 'timeoutMs', '"items"']) expect(targetDoc).toContain(word);
  });
});
