/** spgate's command line: parse arguments, call the library, set the exit code — nothing else. */
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { SpgateError, oneLine } from '../errors.js';
import { commands } from './commands/index.js';
import { VERSION } from '../version.js';

async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const parser = yargs(argv)
    .scriptName('spgate')
    .version(VERSION)
    .strict()
    .demandCommand(1, 'name a command: run, conformance, load, serve, report, compare, analyze, replay, merge or init')
    .recommendCommands()
    .wrap(Math.min(110, process.stdout.columns || 110))
    .fail((msg, err) => {
      throw err ?? new SpgateError('SPGATE_ERR_USAGE', msg ?? 'invalid usage');
    });
  for (const cmd of commands) {
    parser.command({
      command: cmd.command,
      describe: cmd.describe,
      builder: cmd.builder,
      handler: async (args) => {
        exitCode = await cmd.run(args);
      },
    });
  }
  await parser.parseAsync();
  return exitCode;
}

main(hideBin(process.argv)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(oneLine(err) + '\n');
    if (process.env.SPGATE_DEBUG && err instanceof Error && err.stack) process.stderr.write(err.stack + '\n');
    process.exitCode = err instanceof SpgateError ? err.exitCode : 3;
  },
);
