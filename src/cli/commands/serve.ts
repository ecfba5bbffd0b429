/** `spgate serve` — runs the embedded reference server until SIGINT/SIGTERM. */
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';
import {
  DIALECT_NAMES,
  FAULT_NAMES,
  WORLD_DESCRIPTIONS,
  describeDialects,
  formatWorlds,
  isDialectName,
  isFaultName,
  parseWorlds,
  startReferenceServer,
  writeTargetFile,
  type DialectName,
  type FaultName,
  type Worlds,
} from '../../reference/index.js';

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

/** Validates --dialect; an unknown name is a usage error that lists the valid ones. */
function parseDialect(raw: unknown): DialectName {
  const name = raw === undefined ? 'default' : String(raw);
  if (!isDialectName(name))
    throw new SpgateError('SPGATE_ERR_USAGE', `unknown dialect "${name}"; valid dialects: ${DIALECT_NAMES.join(', ')}`);
  return name;
}

/** Parses --world values (comma lists, repeatable, `name=option`); a bad one is a one-line usage error. */
function parseWorldOption(raw: unknown): Worlds {
  const list = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String);
  try {
    return parseWorlds(list);
  } catch (err) {
    throw new SpgateError('SPGATE_ERR_USAGE', (err as Error).message, { cause: err });
  }
}

export const serveCommand: SpgateCommand = {
  command: 'serve',
  describe: 'run the embedded reference server (with optional faults) until interrupted',
  builder: (y) =>
    y
      .option('port', { type: 'number', default: 8787, describe: 'port to listen on (0 picks a free one)' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'interface to bind' })
      .option('seed', { type: 'number', describe: 'seed for ids, keys and data (random when absent)' })
      .option('read-budget', { type: 'number', describe: 'read requests per key and window (default: per dialect; 1000 in default)' })
      .option('write-budget', { type: 'number', describe: 'write requests per key and window (default: per dialect; 250 in default)' })
      .option('window', { type: 'number', describe: 'rate-limit window in seconds (default: per dialect; 5 in default)' })
      .option('fault', { type: 'string', array: true, describe: 'switch on a named fault (repeatable)' })
      .option('dialect', {
        type: 'string',
        describe: `choices where the spec says "not shown": ${DIALECT_NAMES.join(' | ')} (default: default)`,
      })
      .option('world', {
        type: 'string',
        array: true,
        describe: 'staging conditions, not faults: big[=N], busy[=MS], drifting[=DELAY], sparse (comma list, repeatable)',
      })
      .option('fixtures-api', {
        type: 'boolean',
        default: true,
        describe: 'serve /_fixtures; --no-fixtures-api answers 404 there and leaves fixtures.api out of --target-out',
      })
      .option('omit-budgets', {
        type: 'boolean',
        default: false,
        describe: 'leave assumptions.rateLimit out of --target-out (the toolkit must discover the budgets)',
      })
      .option('target-out', { type: 'string', describe: 'write a target file for this server (keys inline, fixture ids and pools)' })
      .epilog(
        [
          'Dialects:',
          ...describeDialects().map((d) => `  ${d}`),
          'Worlds:',
          ...Object.entries(WORLD_DESCRIPTIONS).map(([n, d]) => `  ${n}: ${d}`),
        ].join('\n'),
      ),
  run: async (args) => {
    const faults = parseFaults(args.fault);
    const dialect = parseDialect(args.dialect);
    const worlds = parseWorldOption(args.world);
    const port = intOption(args.port, 'port', 0) ?? 8787;
    const host = String(args.host ?? '127.0.0.1');
    let server;
    try {
      server = await startReferenceServer({
        port,
        host,
        faults,
        dialect,
        worlds,
        fixturesApi: args.fixturesApi !== false,
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
      if (code === 'EADDRNOTAVAIL' || code === 'EACCES')
        throw new SpgateError('SPGATE_ERR_USAGE', `cannot listen on ${host}:${port} (${code})`, { cause: err });
      throw err;
    }
    const targetOut = args.targetOut as string | undefined;
    if (targetOut) {
      await writeTargetFile(targetOut, server.describe({ budgets: args.omitBudgets !== true }));
    }
    const worldNote = formatWorlds(worlds);
    const faultNote =
      (dialect === 'default' ? '' : ` (dialect: ${dialect})`) +
      (worldNote.length ? ` (worlds: ${worldNote.join(', ')})` : '') +
      (faults.length ? ` (faults: ${faults.join(', ')})` : '');
    // the handlers go in before the line is out: a caller may signal as soon as it reads the line
    const stopped = new Promise<void>((resolve) => {
      const stop = (): void => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    process.stdout.write(`spgate reference server listening on ${server.baseUrl}${faultNote}\n`);
    await stopped;
    await server.close();
    return 0;
  },
};
