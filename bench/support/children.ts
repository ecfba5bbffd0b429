/**
 * Child processes of the benches: servers and generators each pinned to a core of their own with taskset
 * (when it exists), so one does not measure the other's CPU, and the first IPC message a child sends.
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';

/** Whether taskset can pin processes here (the benches say so when it cannot). */
export const HAS_TASKSET = spawnSync('taskset', ['-c', '0', 'true']).status === 0;

/** The command prefix that pins a process to `core`, or none without taskset. */
export function pinned(core: number): string[] {
  return HAS_TASKSET ? ['taskset', '-c', String(core)] : [];
}

/** Forks the bench file `self` with `args` (under tsx, with an IPC channel) on `core`. */
export function forkOnCore(self: string, args: string[], core: number): ChildProcess {
  const stdio: ['ignore', 'inherit', 'inherit', 'ipc'] = ['ignore', 'inherit', 'inherit', 'ipc'];
  if (!HAS_TASKSET) return fork(self, args, { execArgv: ['--import', 'tsx'], stdio });
  // fork cannot prefix a command: node runs under taskset with the IPC channel.
  return fork(self, args, { execPath: 'taskset', execArgv: ['-c', String(core), process.execPath, '--import', 'tsx'], stdio });
}

/** The child's first message; rejects (and kills it) when it exits or stays silent for `timeoutMs`. */
export function firstMessage<T>(proc: ChildProcess, what: string, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill();
      reject(new Error(`${what} did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    proc.once('message', (m: T) => {
      clearTimeout(timer);
      resolve(m);
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}`));
    });
  });
}
