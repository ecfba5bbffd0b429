/** The trace a command was given: spgate's NDJSON, or a HAR 1.2 file (by its .har extension). */
import { readHar, type HarOptions } from './har.js';
import { readTrace } from './reader.js';
import type { TraceRecord } from './record.js';

/** True for a path the HAR reader takes. */
export function isHarPath(path: string): boolean {
  return /\.har$/i.test(path);
}

/** Reads either form; HAR entries that are not API requests are counted in `ignored`. */
export async function readTraceInput(
  path: string,
  opts: HarOptions = {},
): Promise<{ records: TraceRecord[]; ignored: number; format: 'ndjson' | 'har' }> {
  if (isHarPath(path)) return { ...(await readHar(path, opts)), format: 'har' };
  return { records: await readTrace(path), ignored: 0, format: 'ndjson' };
}
