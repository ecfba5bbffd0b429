/** Reading and writing results.json: atomic writes, validated reads with one-line errors. */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { SpgateError } from '../errors.js';
import { describeJsonError } from '../target/issues.js';
import { RESULTS_SCHEMA_VERSION, Results } from './schema.js';

/**
 * Writes results as pretty JSON through a temp file in the same directory and a rename, so a crash or a
 * second signal mid-write never leaves a truncated results.json behind.
 */
export async function writeResults(path: string, results: Results): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(tmp, JSON.stringify(results, null, 2) + '\n', 'utf8');
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** Reads and validates a results file; every problem becomes one SPGATE_ERR_RESULTS_INVALID line. */
export async function readResults(path: string): Promise<Results> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new SpgateError(
      'SPGATE_ERR_FILE_NOT_FOUND',
      `cannot read results file ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`,
      { cause: err },
    );
  }
  return parseResults(text, path);
}

/** Parses and validates results JSON text (`where` names the source in messages). */
export function parseResults(text: string, where: string): Results {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new SpgateError('SPGATE_ERR_RESULTS_INVALID', `${where} is not JSON: ${describeJsonError(text, err)}`, { cause: err });
  }
  const version = (raw as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (version !== RESULTS_SCHEMA_VERSION) {
    throw new SpgateError(
      'SPGATE_ERR_RESULTS_INVALID',
      `${where} has schemaVersion ${JSON.stringify(version ?? null)}; this spgate reads version ${RESULTS_SCHEMA_VERSION}`,
    );
  }
  const parsed = Results.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const first = issues[0]!;
    const at = first.path.length ? first.path.map(String).join('.') : '(root)';
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    throw new SpgateError('SPGATE_ERR_RESULTS_INVALID', `${where}: ${at}: ${first.message.split('\n')[0]}${more}`, { cause: parsed.error });
  }
  return parsed.data;
}
