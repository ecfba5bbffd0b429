/**
 * The world × dialect matrix of issue 30, shared by the vitest files (test/conformance/worlds-*.test.ts) and
 * the table script (bench/matrix/worlds.ts): every dialect with all four worlds at once, and each world alone on the
 * default dialect (the script's --every: on every dialect). Sizes are the (12,000 more customers); drifting=0 moves the pool items before
 * the run (a re-run against the same pools), drifting=3s while it runs.
 */
import { DIALECT_NAMES, type DialectName } from '../../src/reference/index.js';
import type { WorldVerdict } from './world-server.js';
import { unexplainedIdsOnly } from './ids-only-hides.js';

export const ALL_WORLDS = ['big=12000', 'busy', 'drifting=0', 'sparse'] as const;

export interface MatrixCell {
  dialect: DialectName;
  worlds: readonly string[];
}

/** Every dialect in all worlds at once. */
export const ALL_WORLDS_CELLS: readonly MatrixCell[] = DIALECT_NAMES.map((dialect) => ({ dialect, worlds: ALL_WORLDS }));

const SINGLE_WORLDS = ['big=12000', 'busy', 'drifting=3s', 'sparse'];

/** Each world alone, on the default dialect (the tests' cells). */
export const SINGLE_WORLD_CELLS: readonly MatrixCell[] = SINGLE_WORLDS.map((w) => ({ dialect: 'default', worlds: [w] }));

/** Each world alone on every dialect: the table script's --every (the tests hold every dialect to all worlds at once). */
export const EVERY_SINGLE_WORLD_CELLS: readonly MatrixCell[] = DIALECT_NAMES.flatMap((dialect) =>
  SINGLE_WORLDS.map((w) => ({ dialect, worlds: [w] })),
);

/**
 * Checks a world truly hides from view, with why: only these may end inconclusive there. Anything else
 * inconclusive is a check that gave up on data it could have found (issue 30: find the check's own data
 * through the filters the spec gives; too little data is inconclusive with what to add).
 */
export const WORLD_HIDES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  big: {},
  busy: {},
  drifting: {},
  sparse: { 'pagination.articles': 'five articles fit on one page of the articles list: there is no nextCursor to follow' },
};

/** The inconclusive checks a cell allows (the union over its worlds). */
export function hiddenIn(worlds: readonly string[]): Set<string> {
  const names = worlds.flatMap((w) => w.split(',')).map((w) => w.split('=')[0]!);
  return new Set(names.flatMap((n) => Object.keys(WORLD_HIDES[n] ?? {})));
}

/** The inconclusive results of a verdict the cell's worlds (and its ids-only target: IDS_ONLY_HIDES) do not explain. */
export function unexplainedInconclusive(v: WorldVerdict, worlds: readonly string[]): string[] {
  const hidden = hiddenIn(worlds);
  return unexplainedIdsOnly(v.inconclusive).filter((line) => !hidden.has(line.slice(0, line.indexOf(':'))));
}

/** One markdown row of the table: world × dialect × findings × inconclusive. */
export function tableRow(v: WorldVerdict): string {
  const incl = v.inconclusive.map((l) => l.slice(0, l.indexOf(':')));
  return `| ${v.worlds} | ${v.dialect} | ${v.findings.join(', ') || '—'} | ${incl.join(', ') || '—'} | ${v.errors.map((l) => l.slice(0, l.indexOf(':'))).join(', ') || '—'} | ${v.ran}/${v.total} | ${(v.ms / 1000).toFixed(0)} s |`;
}

export const TABLE_HEAD = '| worlds | dialect | findings (check ids) | inconclusive (check ids) | errors | ran | time |\n|-|-|-|-|-|-|-|';
