/**
 * `npm run bench`: runs every benchmark in this folder (each exports `bench()` returning named figures),
 * one after another so they do not compete for the two cores, and ends with one machine-readable line:
 *   BENCH {"spgateVsAutocannon": …, "coP99ErrorPct": …, "referenceVsBare": …, …}
 * Pass names to run a subset: `npm run bench -- load conformance`. `BENCH_QUICK=1` shortens every load
 * benchmark (a smoke run of the bench itself; its figures are not the reference ones).
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { basename, dirname, join } from 'node:path';

type BenchFn = () => Promise<Record<string, number>>;

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
  .filter((f) => wanted.length === 0 || wanted.includes(basename(f, '.ts')))
  .sort();

const figures: Record<string, number> = {};
let failed = false;
for (const file of files) {
  const name = basename(file, '.ts');
  process.stdout.write(`\n== bench ${name}\n`);
  try {
    const mod = (await import(join(here, file))) as { bench?: BenchFn };
    if (typeof mod.bench !== 'function') throw new Error('exports no bench()');
    const started = performance.now();
    const out = await mod.bench();
    Object.assign(figures, out);
    process.stdout.write(`== ${name} done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  } catch (err) {
    failed = true;
    process.stdout.write(`== ${name} failed: ${err instanceof Error ? err.message : String(err)}\n`);
  }
}
const rounded = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, Math.round(v * 1000) / 1000]));
process.stdout.write(`BENCH ${JSON.stringify(rounded)}\n`);
process.exitCode = failed ? 1 : 0;
