/** The JSON reporter: results.json itself (atomic write), for `spgate report --format json`. */
import { join } from 'node:path';
import { writeResults } from '../results/io.js';
import type { Reporter } from './reporter.js';

export const jsonReporter: Reporter = {
  name: 'json',
  async render(results, outDir) {
    const path = join(outDir, 'results.json');
    await writeResults(path, results);
    return [path];
  },
};
