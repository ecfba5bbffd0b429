/**
 * Issue 30's "same verdict under load": the fault matrix run on a quiet machine, then again while every
 * core runs a CPU-bound child, and the verdicts compared. The matrix is what the suite proves on itself:
 * - every check alone against the reference server with the fault test/conformance/check-faults.ts names
 *   for it (as test/conformance/every-check.test.ts runs it): caught, or what it said instead;
 * - every check alone against the clean server: its status (a finding here is a false alarm);
 * - every load-side fault (as test/load/faults.test.ts runs it): its clause found by class-isolation, or not.
 * A busy round's verdict that differs from the quiet round's is listed with both reasons; the script exits 1
 * when there is one. Cases run one after the other, each on a loopback port.
 *
 *   node --import tsx bench/matrix/faults-under-load.ts [--rounds 3] [--only limits.] [--json out.json] [--no-load]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { FAULTS, startReferenceServer, type FaultName, type RunningReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import {
  CHECK_FAULT_BUDGETS as BUDGETS,
  CHECK_FAULTS,
  NEEDS_WINDOW_ROOM,
  SMALL_READ,
  SMALL_READ_BUDGET,
  roomInWindow,
} from '../../test/conformance/check-faults.js';
import { LOAD_FAULTS, runLoadWith } from '../../test/load/support/load-faults.js';
import { runConformance } from '../../test/support/conformance.js';

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const rounds = Number(opt('--rounds') ?? 3);
const only = opt('--only');
const jsonOut = opt('--json');
const withLoad = !args.includes('--no-load');

const SEED = 7;
const RUNS = 5;

interface Case {
  name: string;
  run(): Promise<string>;
}

let main: RunningReferenceServer;
let smallRead: RunningReferenceServer;

/** One check alone, with `faults` on: "caught", or its status and reason. */
async function checkVerdict(id: string, faults: FaultName[]): Promise<string> {
  const server = SMALL_READ_BUDGET.has(id) ? smallRead : main;
  server.setFaults(faults);
  try {
    await fetch(`${server.fixturesUrl}/ratelimit/reset`, { method: 'POST' });
    if (NEEDS_WINDOW_ROOM.has(id)) await roomInWindow();
    const out = await runConformance({ target: targetFromInput(server.target, 'embedded'), checks: [id], runs: RUNS, seed: SEED });
    const result = out.checks[0];
    if (!result) return 'not run';
    const mine = out.findings.filter((f) => f.checkId === id);
    if (faults.length > 0 && /^(failed|warned)$/.test(result.status) && mine.length > 0) return 'caught';
    const clauses = [...new Set(mine.map((f) => f.clause))].join(', ');
    return `${result.status}${clauses ? ` [${clauses}]` : ''}${result.reason ? `: ${result.reason}` : ''}`;
  } finally {
    server.setFaults([]);
  }
}

/** One load fault under class-isolation: "caught" when its clause is a finding, else what was found. */
async function loadVerdict(fault: FaultName): Promise<string> {
  const { findings } = await runLoadWith([fault]);
  if (findings.some((f) => f.clause === FAULTS[fault].catches)) return 'caught';
  return `missed (found: ${[...new Set(findings.map((f) => f.clause))].join(', ') || 'nothing'})`;
}

const cases: Case[] = [
  ...Object.entries(CHECK_FAULTS).flatMap(([id, faults]): Case[] => {
    const list = typeof faults === 'string' ? [faults] : [...faults];
    return [
      { name: `${id} ← ${list.join(' + ')}`, run: () => checkVerdict(id, list) },
      { name: `${id} clean`, run: () => checkVerdict(id, []) },
    ];
  }),
  ...(withLoad ? LOAD_FAULTS.map((f): Case => ({ name: `load ← ${f}`, run: () => loadVerdict(f) })) : []),
].filter((c) => only === undefined || c.name.startsWith(only));

/** One CPU-bound child per core: what a shared CI runner's neighbours do. */
function burn(): ChildProcess[] {
  return Array.from({ length: availableParallelism() }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

async function round(label: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const started = performance.now();
  for (const c of cases) {
    try {
      out.set(c.name, await c.run());
    } catch (err) {
      out.set(c.name, `threw: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  process.stdout.write(`${label}: ${cases.length} cases in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  return out;
}

main = await startReferenceServer({ seed: 1, budgets: BUDGETS });
smallRead = await startReferenceServer({ seed: 1, budgets: { ...BUDGETS, read: SMALL_READ } });
const results: Array<{ label: string; verdicts: Map<string, string> }> = [];
try {
  results.push({ label: 'quiet', verdicts: await round('quiet') });
  for (let i = 1; i <= rounds; i++) {
    const burners = burn();
    try {
      results.push({ label: `busy ${i}`, verdicts: await round(`busy ${i} (${burners.length} CPU-bound children)`) });
    } finally {
      for (const b of burners) b.kill('SIGKILL');
    }
  }
} finally {
  await main.close();
  await smallRead.close();
}

const quiet = results[0]!.verdicts;
/** A verdict without its numbers (request counts, seconds): the same judgement worded with other figures is the same. */
const gist = (v: string): string => v.replace(/\d+(\.\d+)?/g, '#');
let differing = 0;
for (const c of cases) {
  const q = quiet.get(c.name)!;
  const others = results.slice(1).filter((r) => gist(r.verdicts.get(c.name)!) !== gist(q));
  if (others.length === 0) continue;
  differing++;
  process.stdout.write(`\n${c.name}\n  quiet: ${q}\n`);
  for (const r of others) process.stdout.write(`  ${r.label}: ${r.verdicts.get(c.name)}\n`);
}
const caught = [...quiet.values()].filter((v) => v === 'caught').length;
process.stdout.write(
  `\n${cases.length} cases (${caught} caught on the quiet machine); ${differing} with a different verdict in one of ${rounds} busy rounds\n`,
);
if (jsonOut)
  writeFileSync(
    jsonOut,
    JSON.stringify(
      results.map((r) => ({ label: r.label, verdicts: Object.fromEntries(r.verdicts) })),
      null,
      2,
    ) + '\n',
  );
process.exitCode = differing ? 1 : 0;
