/** `spgate serve` — runs the embedded reference server until SIGINT/SIGTERM. */
import { writeFile } from 'node:fs/promises';
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';
import { FAULT_NAMES, isFaultName, startReferenceServer, type FaultName } from '../../reference/index.js';

function intOption(value: unknown, name: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) throw new SpgateError('SPGATE_ERR_USAGE', `--${name} must be a number >= ${min}`);
  return n;
}

/** Validates --fault values; an unknown name is a usage error that lists the valid ones. */
function parseFaults(raw: unknown): FaultName[] {
  const list = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).flatMap((v) => String(v).split(',')).filter(Boolean);
  for (const name of list) {
    if (!isFaultName(name)) {
      throw new SpgateError('SPGATE_ERR_USAGE', `unknown fault "${name}"; valid faults: ${FAULT_NAMES.join(', ')}`);
    }
  }
  return list as FaultName[];
}

export const serveCommand: SpgateCommand = {
  command: 'serve',
  describe: 'run the embedded reference server (with optional faults) until interrupted',
  builder: (y) => y
    .option('port', { type: 'number', default: 8787, describe: 'port to listen on (0 picks a free one)' })
    .option('host', { type: 'string', default: '127.0.0.1', describe: 'interface to bind' })
    .option('seed', { type: 'number', describe: 'seed for ids, keys and data (random when absent)' })
    .option('read-budget', { type: 'number', describe: 'read requests per key and window (default 1000)' })
    .option('write-budget', { type: 'number', describe: 'write requests per key and window (default 250)' })
    .option('window', { type: 'number', describe: 'rate-limit window in seconds (default 5)' })
    .option('fault', { type: 'string', array: true, describe: 'switch on a named fault (repeatable)' })
    .option('target-out', { type: 'string', describe: 'write a target file for this server (keys inline)' }),
  run: async (args) => {
    const faults = parseFaults(args.fault);
    const port = intOption(args.port, 'port', 0) ?? 8787;
    const host = String(args.host ?? '127.0.0.1');
    let server;
    try {
      server = await startReferenceServer({
        port, host, faults,
        seed: intOption(args.seed, 'seed', 0),
        budgets: {
          read: intOption(args.readBudget, 'read-budget', 1),
          write: intOption(args.writeBudget, 'write-budget', 1),
          windowSeconds: intOption(args.window, 'window', 0.001),
        },
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') throw new SpgateError('SPGATE_ERR_USAGE', `port ${port} on ${host} is already in use`, { cause: err });
      if (code === 'EADDRNOTAVAIL' || code === 'EACCES') throw new SpgateError('SPGATE_ERR_USAGE', `cannot listen on ${host}:${port} (${code})`, { cause: err });
      throw err;
    }
    const targetOut = args.targetOut as string | undefined;
    if (targetOut) await writeFile(targetOut, JSON.stringify(server.target, null, 2) + '\n', { mode: 0o600 });
    const faultNote = faults.length ? ` (faults: ${faults.join(', ')})` : '';
    process.stdout.write(`spgate reference server listening on ${server.baseUrl}${faultNote}\n`);
    await new Promise<void>((resolve) => {
      const stop = (): void => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await server.close();
    return 0;
  },
};
