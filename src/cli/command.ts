/** The shape every CLI command file exports. `run` returns the exit code (see DESIGN.md). */
import type { Argv, ArgumentsCamelCase } from 'yargs';

export interface SpgateCommand {
  command: string;
  describe: string;
  builder: (y: Argv) => Argv;
  run: (args: ArgumentsCamelCase<Record<string, unknown>>) => Promise<number>;
}
