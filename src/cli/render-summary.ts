/** Prints what the reporters wrote and turns reporter failures into SPGATE_ERR_REPORTER_FAILED lines. */
import { relative } from 'node:path';
import type { RenderSummary } from '../report/index.js';
import { ERROR_CATALOGUE } from '../errors.js';

interface Out {
  write(s: string): unknown;
}

/** Lists written files and failures; returns 0, or the reporter-failure exit code when one failed. */
export function printRenderSummary(s: RenderSummary, out: Out, err: Out): number {
  let failed = false;
  for (const o of s.outcomes) {
    if (o.status === 'written') {
      const shown = o.files.map((f) => relative(process.cwd(), f) || f);
      if (shown.length > 3) out.write(`${o.reporter}: ${shown.length} files (${shown[0]} …)\n`);
      else if (shown.length) out.write(`${o.reporter}: ${shown.join(', ')}\n`);
    } else {
      failed = true;
      err.write(`spgate: SPGATE_ERR_REPORTER_FAILED: ${o.reporter} reporter: ${o.message}\n`);
    }
  }
  for (const n of s.notes) err.write(`spgate: ${n}\n`);
  return failed ? ERROR_CATALOGUE.SPGATE_ERR_REPORTER_FAILED.exit : 0;
}
