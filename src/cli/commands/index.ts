/**
 * Every command of the CLI, in the order --help lists them. Only the name, usage and one-line description
 * live here; a command's module (its options and its libraries: undici, fast-check, chart.js,
 * the zod schemas) is imported only when that command runs, so `spgate --help` and `--version` load
 * none of them. test/cli/commands-index.test.ts keeps these lines equal to the modules' own.
 */
import type { SpgateCommand } from '../command.js';

export interface CommandEntry {
  /** The word that selects the command. */
  name: string;
  /** yargs usage, e.g. `compare <base> <head>` (the module's `command`). */
  command: string;
  /** The line --help shows (the module's `describe`). */
  describe: string;
  /** Imports the command's module. */
  load: () => Promise<SpgateCommand>;
}

export const commands: CommandEntry[] = [
  {
    name: 'run',
    command: 'run',
    describe:
      'Run the conformance suites and the smoke, read-budget, write-budget and class-isolation profiles, then write every report (embedded reference server by default)',
    load: async () => (await import('./run.js')).runCommand,
  },
  {
    name: 'conformance',
    command: 'conformance',
    describe: 'run the conformance suites against a target, or the embedded reference server',
    load: async () => (await import('./conformance.js')).conformanceCommand,
  },
  {
    name: 'load',
    command: 'load',
    describe: 'run a load profile (built-in name or file) against a target, or the embedded reference server',
    load: async () => (await import('./load.js')).loadCommand,
  },
  {
    name: 'serve',
    command: 'serve',
    describe: 'run the embedded reference server (with optional faults) until interrupted',
    load: async () => (await import('./serve.js')).serveCommand,
  },
  {
    name: 'report',
    command: 'report',
    describe: 'Re-render reports (HTML, JUnit, Markdown, PNG charts, JSON) from a saved results.json',
    load: async () => (await import('./report.js')).reportCommand,
  },
  {
    name: 'compare',
    command: 'compare <base> <head>',
    describe:
      'Compare two results.json files: new/fixed findings, latency and throughput with 95 % intervals, rate-limit changes; exit 1 on a supported regression',
    load: async () => (await import('./compare.js')).compareCommand,
  },
  {
    name: 'analyze',
    command: 'analyze <trace>',
    describe: 'rate-limit analysis of a recorded NDJSON trace or a HAR 1.2 file (exit 1 when the limiter broke a rule)',
    load: async () => (await import('./analyze.js')).analyzeCommand,
  },
  {
    name: 'replay',
    command: 'replay <trace>',
    describe: 're-send a trace with its timing, record the responses, and compare rate-limit violations',
    load: async () => (await import('./replay.js')).replayCommand,
  },
  {
    name: 'shrink',
    command: 'shrink <trace>',
    describe: "find the smallest request schedule that still shows a trace's rate-limit violation against the live target",
    load: async () => (await import('./shrink.js')).shrinkCommand,
  },
  {
    name: 'merge',
    command: 'merge <results..>',
    describe: "merge the results of a distributed run's shards (load --shard i/N); thresholds are judged on the whole",
    load: async () => (await import('./merge.js')).mergeCommand,
  },
  {
    name: 'init',
    command: 'init',
    describe: 'probe a target with a few read requests and write a target file plus its coverage plan',
    load: async () => (await import('./init.js')).initCommand,
  },
];

/** The command a command line selects: its first word, when that names one (nothing is loaded otherwise). */
export function selectedCommand(argv: readonly string[]): CommandEntry | undefined {
  const word = argv.find((a) => !a.startsWith('-'));
  return word === undefined ? undefined : commands.find((c) => c.name === word);
}
