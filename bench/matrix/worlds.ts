/**
 * Prints issue 30's table — world × dialect × findings × inconclusive — for the same cells the matrix tests
 * run (test/support/world-matrix.ts), so it can be re-run after the suites change. Cells run one after the
 * other (each a fresh server on a loopback port). `--reasons` also prints every inconclusive reason.
 *
 *   node --import tsx bench/matrix/worlds.ts [--reasons] [--only default] [--every]
 *
 * --every runs each world alone on every dialect, not only on the default one.
 */
import {
  ALL_WORLDS_CELLS,
  EVERY_SINGLE_WORLD_CELLS,
  SINGLE_WORLD_CELLS,
  TABLE_HEAD,
  tableRow,
  unexplainedInconclusive,
} from '../../test/support/world-matrix.js';
import { worldVerdict, type WorldVerdict } from '../../test/support/world-server.js';

const args = process.argv.slice(2);
const reasons = args.includes('--reasons');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const cells = [...ALL_WORLDS_CELLS, ...(args.includes('--every') ? EVERY_SINGLE_WORLD_CELLS : SINGLE_WORLD_CELLS)].filter(
  (c) => only === undefined || c.dialect === only,
);

const verdicts: Array<{ v: WorldVerdict; worlds: readonly string[] }> = [];
process.stdout.write(TABLE_HEAD + '\n');
for (const cell of cells) {
  const v = await worldVerdict({ dialect: cell.dialect, worlds: cell.worlds });
  verdicts.push({ v, worlds: cell.worlds });
  process.stdout.write(tableRow(v) + '\n');
}
if (reasons) {
  for (const { v, worlds } of verdicts) {
    if (!v.inconclusive.length && !v.errors.length) continue;
    process.stdout.write(`\n${v.worlds} × ${v.dialect}:\n`);
    const unexplained = new Set(unexplainedInconclusive(v, worlds));
    for (const line of v.inconclusive)
      process.stdout.write(`  inconclusive${unexplained.has(line) ? '' : ' (the world hides it)'} ${line}\n`);
    for (const line of v.errors) process.stdout.write(`  error ${line}\n`);
  }
}
const bad = verdicts.filter(({ v, worlds }) => v.findings.length || v.errors.length || unexplainedInconclusive(v, worlds).length).length;
process.stdout.write(
  `\n${verdicts.length - bad} of ${verdicts.length} cells clean (zero findings, inconclusive only where the world hides the data)\n`,
);
process.exitCode = bad ? 1 : 0;
