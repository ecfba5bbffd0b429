/** Captures where a run happened, for the report's environment section. */
import os from 'node:os';
import type { Results } from './schema.js';

export type Environment = Results['meta']['environment'];

/** The current process's environment: Node version, platform, CPU count and host name. */
export function captureEnvironment(): Environment {
  return {
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    arch: process.arch,
    cpus: os.availableParallelism?.() ?? os.cpus().length,
    hostname: os.hostname(),
  };
}
