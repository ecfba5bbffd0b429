/** The HTML reporter: writes index.html. */
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { renderHtml } from './html/page.js';
import type { Reporter } from './reporter.js';

export const htmlReporter: Reporter = {
  name: 'html',
  async render(results, outDir) {
    await mkdir(outDir, { recursive: true });
    const path = join(outDir, 'index.html');
    await writeFile(path, renderHtml(results), 'utf8');
    return [path];
  },
};
