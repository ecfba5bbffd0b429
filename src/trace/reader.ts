/**
 * Reads an NDJSON trace line by line (traces of long runs are large), validating every record. A bad line
 * is reported as one line naming the file and the line number.
 */
import { createReadStream } from 'node:fs';
import { access, constants } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { SpgateError } from '../errors.js';
import { TraceRecord } from './record.js';

/** Parses one trace line; returns the record or a one-line reason. */
export function parseTraceLine(line: string): { ok: true; record: TraceRecord } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (err) {
    return { ok: false, reason: `not JSON (${(err as Error).message})` };
  }
  const parsed = TraceRecord.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') + ': ' : '';
    return { ok: false, reason: `not a trace record (${where}${issue?.message ?? 'invalid'})` };
  }
  return { ok: true, record: parsed.data };
}

/** Reads and validates every record of a trace file; blank lines are skipped. */
export async function readTrace(path: string): Promise<TraceRecord[]> {
  try {
    await access(path, constants.R_OK);
  } catch (cause) {
    throw new SpgateError('SPGATE_ERR_FILE_NOT_FOUND', `cannot read trace file ${path}`, { cause });
  }
  const records: TraceRecord[] = [];
  for await (const r of streamTrace(path)) records.push(r);
  return records;
}

/** The validated records of one trace, streamed (memory: one line); a bad or cut line is one SPGATE_ERR_TRACE_INVALID line. */
export async function* streamTrace(path: string): AsyncGenerator<TraceRecord> {
  const input = createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  try {
    for await (const line of lines) {
      n += 1;
      if (line.trim() === '') continue;
      const r = parseTraceLine(line);
      if (!r.ok) throw new SpgateError('SPGATE_ERR_TRACE_INVALID', `${path}:${n}: ${r.reason}`);
      yield r.record;
    }
  } catch (err) {
    if (err instanceof SpgateError) throw err;
    throw new SpgateError('SPGATE_ERR_FILE_NOT_FOUND', `cannot read trace file ${path}`, { cause: err });
  } finally {
    lines.close();
    input.destroy();
  }
}
