/**
 * docs/conformance.md lists every check of all suites with its clause, basis and needs, exactly as the
 * catalogue derives them; docs/target-file.md documents every fixture field a check reads and every field
 * of the fixtures.ids schema; docs/judged.md has a row per check in its main table and in its "Every check"
 * table.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SUITES } from '../../suites/index.js';
import { checkRow } from '../../src/conformance/catalogue.js';
import { NEEDS } from '../../src/conformance/fixtures/needs.js';
import { FixtureIds } from '../../src/target/schema.js';
import { fieldsAt } from '../../src/target/suggest.js';

const doc = readFileSync(new URL('../../docs/conformance.md', import.meta.url), 'utf8');
const targetDoc = readFileSync(new URL('../../docs/target-file.md', import.meta.url), 'utf8');
const lines = new Set(doc.split('\n'));
const judgedDoc = readFileSync(new URL('../../docs/judged.md', import.meta.url), 'utf8');
const CHECK_IDS = SUITES.flatMap((s) => s.checks.map((c) => c.id));

/** The text of `text` from the line `from` up to the next line starting with `until` (or the end). */
function section(text: string, from: string, until: string): string {
  const start = text.split('\n').findIndex((l) => l === from);
  if (start < 0) throw new Error(`no line "${from}"`);
  const rest = text.split('\n').slice(start + 1);
  const end = rest.findIndex((l) => l.startsWith(until));
  return rest.slice(0, end < 0 ? undefined : end).join('\n');
}

/** The check ids in the first cells of a markdown table's rows (a cell may name several, comma-separated). */
const rowIds = (table: string): string[] =>
  table
    .split('\n')
    .filter((l) => /^\| [a-z]+\.[a-z0-9.-]+[ ,]/.test(l))
    .flatMap((l) => l.slice(2, l.indexOf(' | ')).split(', '));

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

  it('documents every field of the fixtures.ids schema: a row per single id and pool, their item fields named', () => {
    const ids = section(targetDoc, '### fixtures.ids', '### ');
    const top = fieldsAt(FixtureIds, []);
    const pools = fieldsAt(FixtureIds, ['pools']);
    expect(top).toEqual(expect.arrayContaining(['assigneeIds', 'teams', 'pools']));
    // single ids as table rows (two are prose: an index with its default, and a field no check reads); pools has a table of its own
    const prose = ['deletedAttachmentIndex', 'collectionId'];
    const single = top.filter((f) => f !== 'pools');
    expect(single.filter((f) => !(prose.includes(f) ? ids.includes(`\`${f}\``) : ids.includes(`| \`${f}\` |`)))).toEqual([]);
    expect(ids).toContain('**Pools** (`fixtures.ids.pools`)');
    expect(pools.filter((f) => !ids.includes(`| \`${f}\` |`))).toEqual([]);
    const nested = [...top.flatMap((f) => fieldsAt(FixtureIds, [f, 0])), ...pools.flatMap((f) => fieldsAt(FixtureIds, ['pools', f, 0]))];
    expect(nested.length).toBeGreaterThan(0);
    expect([...new Set(nested)].filter((f) => !new RegExp(`\\b${f}\\b`).test(ids))).toEqual([]);
  });

  it('documents the fixtures.command contract', () => {
    expect(targetDoc).toMatch(/### fixtures\.command/);
    for (const word of ['stdin', 'stdout', 'timeoutMs', '"items"']) expect(targetDoc).toContain(word);
  });
});

describe('docs/judged.md', () => {
  const main = section(judgedDoc, '| check | clause | judged means | test reaching its inconclusive path |', '#');
  const every = section(judgedDoc, '## Every check: its data moved, too big, too sparse', '## ');

  it.each([
    ['the main table', main],
    ['the "Every check: its data moved, too big, too sparse" table', every],
  ])('%s has a row per check of the catalogue, and none for a check that does not exist', (_name, table) => {
    const rows = rowIds(table);
    expect(CHECK_IDS.filter((id) => !rows.includes(id))).toEqual([]);
    expect(rows.filter((id) => !CHECK_IDS.includes(id))).toEqual([]);
  });
});
