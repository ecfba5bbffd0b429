/**
 * `spgate init --base-url URL [--key env:NAME] [--out FILE] [--force]`: probes a target with a handful of read
 * requests, writes a target file (learned values, commented placeholders for the rest, keys as env:
 * references) and prints the coverage plan: which checks will run, which will skip, and the line to add for each.
 * The file is written whole or not at all.
 */
import { existsSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';
import { probeTarget } from '../../init/probe.js';
import { renderTargetYaml } from '../../init/render.js';
import { schemaReference } from '../../schemas/json-schemas.js';
import { conformancePlanLines, planConformance } from '../../plan/conformance.js';
import { loadTarget } from '../../target/load.js';
import { isLoopbackHost } from '../../target/loopback.js';
import { normaliseBaseUrl } from '../../target/resolve.js';

const ENV_REF = /^env:([A-Za-z_][A-Za-z0-9_]*)$/;

export const initCommand: SpgateCommand = {
  command: 'init',
  describe: 'probe a target with a few read requests and write a target file plus its coverage plan',
  builder: (y) =>
    y
      .option('base-url', { type: 'string', demandOption: true, describe: 'the API base URL, including /v1' })
      .option('key', { type: 'string', default: 'env:SPGATE_ADMIN_KEY', describe: 'the admin key, as env:NAME (the file stores only the reference)' })
      .option('out', { type: 'string', default: 'spgate.target.yaml', describe: 'the target file to write (YAML, with comments)' })
      .option('force', { type: 'boolean', default: false, describe: 'replace the output file if it exists' }),
  run: async (args) => {
    const baseUrl = normaliseBaseUrl(String(args.baseUrl), '--base-url');
    const keyRef = String(args.key);
    const m = ENV_REF.exec(keyRef);
    if (!m) throw new SpgateError('SPGATE_ERR_USAGE', '--key must be env:NAME (a key is never written to a file or passed on the command line)');
    const key = process.env[m[1]!]?.trim();
    if (!key) throw new SpgateError('SPGATE_ERR_KEY_ENV_MISSING', `--key: environment variable ${m[1]} is not set`);
    const out = String(args.out);
    if (existsSync(out) && args.force !== true) throw new SpgateError('SPGATE_ERR_OUTPUT_EXISTS', `${out} exists; pass --force to replace it`);

    const probe = await probeTarget(baseUrl, key);
    const yaml = renderTargetYaml({ baseUrl, adminKey: keyRef, loopback: isLoopbackHost(new URL(baseUrl).hostname), probe, date: new Date().toISOString().slice(0, 10), schemaRef: schemaReference(resolve(out), 'target.schema.json') });
    // Written beside the destination and renamed: a failure leaves no half-written file behind.
    const tmp = join(dirname(out), `.${basename(out)}.${process.pid}.tmp.yaml`);
    try {
      await writeFile(tmp, yaml, { mode: 0o600 });
      const target = await loadTarget(tmp); // what we wrote must load as a target file
      await rename(tmp, out);
      process.stdout.write(`wrote ${out} from ${probe.requests} read requests to ${baseUrl}\n`);
      for (const n of probe.notes) process.stdout.write(`note: ${n}\n`);
      process.stdout.write(['', 'coverage plan (spgate conformance --target ' + out + ' --dry-run):', ...conformancePlanLines(planConformance({ ...target, source: out }, [], 25, 0))].join('\n') + '\n');
      return 0;
    } finally {
      await rm(tmp, { force: true });
    }
  },
};
