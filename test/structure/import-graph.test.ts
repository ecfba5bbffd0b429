/**
 * The floors of the house, from the code's own imports: every `import` / `export … from` / `import()` of
 * src/ and suites/ runs down the floors or along one, never back up, and no two folders import each other
 * through any path. The floor table below is the one definition; docs/source-map.md shows it to readers
 * and is held to it here, so the map cannot drift from the code.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The floor of every folder (1 is the ground): a folder imports only from its own floor or below. */
const FLOORS: Record<string, number> = {
  // the ground: the spec's own terms, the error catalogue, ambient types
  'src (root files)': 1,
  'src/spec': 1,
  'src/types': 1,
  // what every run stands on: the target file and the HTTP client
  'src/target': 2,
  'src/client': 2,
  // pure analysis and the records it reads: checks, the results document, rate-limit analysis, the fold, traces
  'src/checks': 3,
  'src/results': 3,
  'src/ratelimit': 3,
  'src/fold': 3,
  'src/trace': 3,
  // the engines and what they drive: load, conformance and its suites, shrink, workers, live outputs, reports
  'src/load': 4,
  'src/conformance': 4,
  suites: 4,
  'src/shrink': 4,
  'src/distributed': 4,
  'src/metrics': 4,
  'src/report': 4,
  'src/reference': 4,
  'src/init': 4,
  'src/dry-run': 4,
  'src/schemas': 4,
  // one home for running a command
  'src/run': 5,
  // the edges: the command line and the GitHub Action
  'src/cli': 6,
  'src/action': 6,
};

/**
 * Arrows that still run back up or close a folder cycle, each with who removes it. The test fails when one
 * is gone, so the line is deleted with the arrow; nothing new may be added here.
 */
const KNOWN: Array<{ from: string; to: string; removedBy: string }> = [];

/** DESIGN: the system under test shares no code with the oracle. */
const NEVER: Array<{ from: string; to: string[] }> = [
  { from: 'src/reference', to: ['src/checks', 'src/conformance', 'suites', 'src/ratelimit'] },
];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? tsFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

const rel = (p: string): string => relative(ROOT, p).split(sep).join('/');

/** The folder a file belongs to: src/<folder>, src's root files, suites, or (outside both) its top folder. */
function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] !== 'src') return parts[0]!;
  return parts.length > 2 ? `src/${parts[1]}` : 'src (root files)';
}

interface Arrow {
  from: string;
  to: string;
}

/** Every relative import of src/ and suites/ (type-only and dynamic ones too), resolved to the file it names. */
function arrows(): { arrows: Arrow[]; unresolved: string[] } {
  const out: Arrow[] = [];
  const unresolved: string[] = [];
  for (const abs of [...tsFiles(join(ROOT, 'src')), ...tsFiles(join(ROOT, 'suites'))]) {
    const info = ts.preProcessFile(readFileSync(abs, 'utf8'), true, true);
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(abs), fileName.replace(/\.js$/, '.ts'));
      if (!existsSync(target)) unresolved.push(`${rel(abs)} → ${fileName}`);
      else out.push({ from: rel(abs), to: rel(target) });
    }
  }
  return { arrows: out, unresolved };
}

const isKnown = (a: Arrow): boolean => KNOWN.some((k) => k.from === a.from && k.to === a.to);

/** The folders that import each other through some path (Tarjan's strongly connected components). */
function folderCycles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      on.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1) cycles.push(scc.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe('the import graph of src/ and suites/', () => {
  const { arrows: all, unresolved } = arrows();
  const across = all.filter((a) => folderOf(a.from) !== folderOf(a.to));

  it('reads every relative import to a file that exists', () => {
    expect(all.length).toBeGreaterThan(1000);
    expect(unresolved).toEqual([]);
  });

  it('places every folder on a floor (a new folder is given one here and in docs/source-map.md)', () => {
    const folders = new Set([...all.map((a) => folderOf(a.from)), ...all.map((a) => folderOf(a.to))]);
    expect([...folders].filter((f) => FLOORS[f] === undefined)).toEqual([]);
  });

  it('has no arrow that runs back up a floor', () => {
    const up = across.filter((a) => !isKnown(a) && (FLOORS[folderOf(a.from)] ?? 0) < (FLOORS[folderOf(a.to)] ?? Infinity));
    expect(up.map((a) => `${a.from} (floor ${FLOORS[folderOf(a.from)]}) → ${a.to} (floor ${FLOORS[folderOf(a.to)]})`)).toEqual([]);
  });

  it('has no folder cycle', () => {
    const edges = new Map<string, Set<string>>();
    for (const a of across.filter((x) => !isKnown(x))) {
      const from = folderOf(a.from);
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(folderOf(a.to));
    }
    expect(folderCycles(edges)).toEqual([]);
  });

  it('keeps the reference server apart from the checking side', () => {
    const bad = across.filter((a) => NEVER.some((n) => folderOf(a.from) === n.from && n.to.includes(folderOf(a.to))));
    expect(bad.map((a) => `${a.from} → ${a.to}`)).toEqual([]);
  });

  it('lists as known only arrows that still exist (delete the line once its arrow is gone)', () => {
    const gone = KNOWN.filter((k) => !all.some((a) => a.from === k.from && a.to === k.to));
    expect(gone.map((k) => `${k.from} → ${k.to}: removed by ${k.removedBy}`)).toEqual([]);
  });

  it('matches docs/source-map.md: every folder with its floor', () => {
    const doc = readFileSync(join(ROOT, 'docs/source-map.md'), 'utf8');
    const rows = new Map<string, number>();
    for (const m of doc.matchAll(/^\|\s*`([^`]+?)\/?`\s*\|\s*(\d)\s*\|/gm)) rows.set(m[1]!, Number(m[2]));
    const mapped = Object.fromEntries(Object.keys(FLOORS).map((f) => [f, rows.get(f === 'src (root files)' ? 'src/*.ts' : f)]));
    expect(mapped).toEqual(FLOORS);
  });
});
