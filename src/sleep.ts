/**
 * The one wait that an interrupt cuts short: resolves after `ms`, or at once when the signal aborts (it
 * never rejects; the caller looks at the signal). Its abort listener is removed when the timer fires, so a
 * long run that waits thousands of times on one signal holds no listener per wait.
 */
export function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
