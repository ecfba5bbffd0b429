/** Seeds: one run seed, and a derived 32-bit seed per check so a check replays alone with the same data. */

/** FNV-1a over a string, as an unsigned 32-bit integer. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The fast-check seed of one check: stable for (run seed, check id), independent of which suites run. */
export function checkSeed(runSeed: number, checkId: string): number {
  return hash32(`${runSeed}:${checkId}`) | 0;
}

/** A random run seed (printed by the CLI so the run can be repeated). */
export function randomSeed(): number {
  return Math.floor(Math.random() * 0x7fffffff);
}
