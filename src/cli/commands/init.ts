/**
 * `spgate init --base-url URL [--key env:NAME] [--out FILE] [--force]`: probes a target with a handful of read
 * requests, writes a target file (learned values, commented placeholders for the rest, keys as env:
 * references) and prints the coverage plan: which checks will run, which will skip, and the line to add for each.
 * The file is written whole or not at all.
 */
import { existsSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';
import { probeTarget } from '../../init/probe.js';
import { renderTargetYaml } from '../../init/render.js';
import { schemaReference } from '../../schemas/json-schemas.js';
import { conformancePlanLines, planConformance } from '../../dry-run/conformance.js';
import { SUITES } from '../../../suites/index.js';
import { loadTarget } from '../../target/load.js';
import { isLoopbackHost } from '../../target/loopback.js';
import { normaliseBaseUrl } from '../../target/resolve.js';
import { Tls } from '../../target/schema.js';
import { absoluteTlsPaths, caFiles, checkTlsFiles } from '../../target/tls.js';
import { checkTlsHandshake } from '../../client/tls-preflight.js';

const ENV_REF = /^env:([A-Za-z_][A-Za-z0-9_]*)$/;

/** The --tls-* flags as a checked tls block (paths absolute, from the current directory). */
function initTls(args: Record<string, unknown>): Tls {
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
  const ca = Array.isArray(args.tlsCa) ? args.tlsCa.map(String) : [];
  const parsed = Tls.safeParse({
    ...(ca.length > 0 ? { ca } : {}),
    ...(str(args.tlsCert) ? { cert: str(args.tlsCert) } : {}),
    ...(str(args.tlsKey) ? { key: str(args.tlsKey) } : {}),
    ...(str(args.tlsServername) ? { servername: str(args.tlsServername) } : {}),
    insecureSkipVerify: args.tlsInsecure === true,
  });
  if (!parsed.success)
    throw new SpgateError('SPGATE_ERR_USAGE', '--tls-cert and --tls-key go together (a client certificate needs its key)');
  const tls = absoluteTlsPaths(parsed.data, process.cwd());
  checkTlsFiles(tls, 'spgate init');
  return tls;
}

/** The tls block to write: paths relative to the written file (which resolves them from its own folder). */
function tlsBlockFor(tls: Tls, outDir: string): Record<string, unknown> {
  const rel = (p: string): string => relative(outDir, p) || p;
  const ca = caFiles(tls).map(rel);
  return {
    ...(ca.length === 1 ? { ca: ca[0] } : ca.length > 1 ? { ca } : {}),
    ...(tls.cert !== undefined ? { cert: rel(tls.cert) } : {}),
    ...(tls.key !== undefined ? { key: rel(tls.key) } : {}),
    ...(tls.servername !== undefined ? { servername: tls.servername } : {}),
    ...(tls.insecureSkipVerify ? { insecureSkipVerify: true } : {}),
  };
}

export const initCommand: SpgateCommand = {
  command: 'init',
  describe: 'probe a target with a few read requests and write a target file plus its coverage plan',
  builder: (y) =>
    y
      .example(
        '$0 init --base-url https://api.staging.example.com/v1 --key env:SPGATE_STAGING_ADMIN_KEY --out staging.target.yaml',
        'probe staging with a few reads and write a target file',
      )
      .option('base-url', { type: 'string', demandOption: true, describe: 'the API base URL, including /v1' })
      .option('key', {
        type: 'string',
        default: 'env:SPGATE_ADMIN_KEY',
        describe: 'the admin key, as env:NAME (the file stores only the reference)',
      })
      .option('out', { type: 'string', default: 'spgate.target.yaml', describe: 'the target file to write (YAML, with comments)' })
      .option('force', { type: 'boolean', default: false, describe: 'replace the output file if it exists' })
      .option('tls-ca', { type: 'string', array: true, describe: 'PEM file of an extra CA to trust (an internal CA); repeatable' })
      .option('tls-cert', { type: 'string', describe: 'PEM file of a client certificate (mTLS); needs --tls-key' })
      .option('tls-key', { type: 'string', describe: "PEM file of the client certificate's key (never printed)" })
      .option('tls-servername', {
        type: 'string',
        describe: "name to verify the server's certificate against, when not the base URL's host",
      })
      .option('tls-insecure', {
        type: 'boolean',
        default: false,
        describe: "do not verify the server's certificate (warned; throw-away environments only)",
      }),
  run: async (args) => {
    const baseUrl = normaliseBaseUrl(String(args.baseUrl), '--base-url');
    const keyRef = String(args.key);
    const m = ENV_REF.exec(keyRef);
    if (!m)
      throw new SpgateError('SPGATE_ERR_USAGE', '--key must be env:NAME (a key is never written to a file or passed on the command line)');
    const key = process.env[m[1]!]?.trim();
    if (!key) throw new SpgateError('SPGATE_ERR_KEY_ENV_MISSING', `--key: environment variable ${m[1]} is not set`);
    const out = String(args.out);
    if (existsSync(out) && args.force !== true)
      throw new SpgateError('SPGATE_ERR_OUTPUT_EXISTS', `${out} exists; pass --force to replace it`);

    const tls = initTls(args);
    if (tls.insecureSkipVerify) process.stderr.write(`warning: --tls-insecure: ${new URL(baseUrl).host}'s certificate is NOT verified\n`);
    await checkTlsHandshake(baseUrl, { tls });
    const probe = await probeTarget(baseUrl, key, { tls });
    const yaml = renderTargetYaml({
      baseUrl,
      adminKey: keyRef,
      loopback: isLoopbackHost(new URL(baseUrl).hostname),
      probe,
      date: new Date().toISOString().slice(0, 10),
      schemaRef: schemaReference(resolve(out), 'target.schema.json'),
      tls: tlsBlockFor(tls, dirname(resolve(out))),
    });
    // Written beside the destination and renamed: a failure leaves no half-written file behind.
    const tmp = join(dirname(out), `.${basename(out)}.${process.pid}.tmp.yaml`);
    try {
      await writeFile(tmp, yaml, { mode: 0o600 });
      const target = await loadTarget(tmp); // what we wrote must load as a target file
      await rename(tmp, out);
      process.stdout.write(`wrote ${out} from ${probe.requests} read requests to ${baseUrl}\n`);
      for (const n of probe.notes) process.stdout.write(`note: ${n}\n`);
      process.stdout.write(
        [
          '',
          'coverage plan (spgate conformance --target ' + out + ' --dry-run):',
          ...conformancePlanLines(planConformance({ ...target, source: out }, [], 25, 0, SUITES)),
        ].join('\n') + '\n',
      );
      return 0;
    } finally {
      await rm(tmp, { force: true });
    }
  },
};
