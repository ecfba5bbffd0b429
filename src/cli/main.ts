/** spgate's command line: parse arguments, call the library, set the exit code — nothing else. */
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { SpgateError, oneLine } from '../errors.js';
import { commands, selectedCommand } from './commands/index.js';
import { VERSION } from '../version.js';

async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  // Only the command the line names is imported (its options are needed to parse it); the others are
  // listed by name and description alone, which is all --help shows of them.
  const chosen = selectedCommand(argv);
  const loaded = chosen ? await chosen.load() : undefined;
  const parser = yargs(argv)
    .scriptName('spgate')
    .version(VERSION)
    .strict()
    .demandCommand(1, `name a command: ${commandList()} (spgate --help describes each)`)
    .recommendCommands()
    .example('$0 run', 'conformance and the load profiles against the embedded reference server, every report in reports/latest')
    .example('$0 run --target staging.yaml --dry-run', 'the plan against staging; nothing is sent')
    .example('$0 load --profile capacity --target staging.yaml', 'a capacity ramp against staging')
    .example('$0 <command> --help', "a command's options and examples")
    .wrap(Math.min(110, process.stdout.columns || 110))
    .fail((msg, err) => {
      // recommendCommands says only "Did you mean X?": name what was typed, and the command list.
      const unknownCommand = msg?.startsWith('Did you mean') && !chosen ? argv[0] : undefined;
      const text = unknownCommand ? `unknown command "${unknownCommand}"; ${msg.replace(/^Did/, 'did')} (commands: ${commandList()})` : msg;
      throw err ?? new SpgateError('SPGATE_ERR_USAGE', text ?? 'invalid usage');
    });
  for (const entry of commands) {
    const cmd = entry === chosen ? loaded : undefined;
    parser.command({
      command: cmd?.command ?? entry.command,
      describe: cmd?.describe ?? entry.describe,
      builder: cmd ? cmd.builder : (y) => y,
      handler: async (args) => {
        // Reached only for the chosen command: yargs runs the handler of the command the line names.
        exitCode = await (cmd ?? (await entry.load())).run(args);
      },
    });
  }
  await parser.parseAsync();
  return exitCode;
}

/** Every command's name, as a sentence: `run, conformance, … or init`. */
function commandList(): string {
  const names = commands.map((c) => c.name);
  return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
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
