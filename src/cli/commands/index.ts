/** Every command of the CLI, in the order --help lists them. */
import type { SpgateCommand } from '../command.js';
import { runCommand } from './run.js';
import { conformanceCommand } from './conformance.js';
import { loadCommand } from './load.js';
import { serveCommand } from './serve.js';
import { reportCommand } from './report.js';
import { compareCommand } from './compare.js';
import { analyzeCommand } from './analyze.js';
import { replayCommand } from './replay.js';
import { initCommand } from './init.js';
import { mergeCommand } from './merge.js';
import { shrinkCommand } from './shrink.js';

export const commands: SpgateCommand[] = [
  runCommand, conformanceCommand, loadCommand, serveCommand, reportCommand, compareCommand, analyzeCommand, replayCommand, shrinkCommand, mergeCommand, initCommand,
];
