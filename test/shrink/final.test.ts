/** The final measurement's policy (src/shrink/final.ts), driven by scripted attempt outcomes. */
import { describe, expect, it } from 'vitest';
import { FINAL_LEVELS, finalReserveMs, measureFinal } from '../../src/shrink/final.js';
import type { Rate } from '../../src/shrink/search.js';

/** kept[i] reproduces on the attempts `script[i]` marks true (cycled); counts the attempts each got. */
function run(script: boolean[][], original: Rate, opts: { times?: number; deadlineAfter?: number; fits?: (i: number) => boolean } = {}) {
  const tries = script.map(() => 0);
  const drops: string[] = [];
  let total = 0;
  const final = measureFinal<string>({
    kept: script,
    original,
    times: opts.times ?? 10,
    pastDeadline: () => opts.deadlineAfter !== undefined && total >= opts.deadlineAfter,
    attempt: async (i) => {
      const n = tries[i]!++;
      total++;
      const s = script[i]!;
      return { shows: s[n % s.length]!, outcome: `${i}:${n}`, sendErrors: [1] };
    },
    onDrop: (i, r, next) => drops.push(`${i} at ${r.reproduced}/${r.attempts}${next === i - 1 ? '' : ` -> ${next}`}`),
    ...(opts.fits ? { fits: opts.fits } : {}),
  });
  return final.then((f) => ({ ...f, tries, drops }));
}

describe('measureFinal', () => {
  it('hands over the best schedule when it reproduces as often as the original', async () => {
    const f = await run([[true], [true]], { reproduced: 3, attempts: 3 });
    expect({ index: f.index, rate: f.rate, tries: f.tries, last: f.last, errors: f.errors.length }).toEqual({
      index: 1,
      rate: { reproduced: 10, attempts: 10 },
      tries: [0, 10],
      last: '1:9',
      errors: 10,
    });
  });

  it('drops a best schedule at its second miss (3 of 3 needs 9 of 10), and measures the one before it', async () => {
    const f = await run([[true], [true], [false, true, false, true]], { reproduced: 3, attempts: 3 });
    expect(f.drops).toEqual(['2 at 1/3']);
    expect(f.tries).toEqual([0, 10, 3]);
    expect({ index: f.index, rate: f.rate }).toEqual({ index: 1, rate: { reproduced: 10, attempts: 10 } });
  });

  it('holds a less reliable original to its own rate: 2 of 3 allows four misses in ten', async () => {
    const f = await run([[true], [true, true, false]], { reproduced: 2, attempts: 3 });
    expect({ index: f.index, rate: f.rate, drops: f.drops }).toEqual({ index: 1, rate: { reproduced: 7, attempts: 10 }, drops: [] });
  });

  it('after three drops in a row, jumps halfway back to the original instead of measuring each lucky keep in turn', async () => {
    // As a store per replica gave (CI, rate-limiter-flexible): 160 → 80 → 40 → 30 → 25 → 20 → 15, each kept
    // on 4 of 4; in the final 15 reproduced 2 of 4, 20 0 of 2, 25, 30 and 40 about 8 in 10, 80 every time.
    // Two drops step back one level each (the reserve holds the best and the two before it).
    const eightInTen = [true, true, true, true, false, true, true, true, true, false];
    const f = await run([[true], [true], eightInTen, eightInTen, eightInTen, [false], [true, false, true, false]], {
      reproduced: 3,
      attempts: 3,
    });
    expect(f.drops).toEqual(['6 at 2/4', '5 at 0/2', '4 at 8/10 -> 2', '2 at 8/10']);
    expect({ index: f.index, rate: f.rate }).toEqual({ index: 1, rate: { reproduced: 10, attempts: 10 } });
    // 36 attempts where one level at a time took 46 (30 measured too).
    expect(f.tries).toEqual([0, 10, 10, 0, 10, 2, 4]);
  });

  it('past three drops, still one level at a time while the clock allows each in full (CI: 25, 30, 40 dropped; 60 held, not 80)', async () => {
    // 160 → 80 → 60 → 40 → 30 → 25, kept on 7 of 7 each; in the final 25 and 30 reproduced 2 of 4, 40 6 of 8.
    const script = [[true], [true], [true], [true, true, false, true, true, true, false], [true, false], [true, false]];
    const roomy = await run(script, { reproduced: 3, attempts: 3 }, { fits: () => true });
    expect(roomy.drops).toEqual(['5 at 2/4', '4 at 2/4', '3 at 5/7']);
    expect({ index: roomy.index, rate: roomy.rate }).toEqual({ index: 2, rate: { reproduced: 10, attempts: 10 } });
    // Without the time for the 60-request one, the jump as before.
    const short = await run(script, { reproduced: 3, attempts: 3 }, { fits: () => false });
    expect(short.drops).toEqual(['5 at 2/4', '4 at 2/4', '3 at 5/7 -> 1']);
    expect(short.index).toBe(1);
  });

  it('two drops in a row step back to the third schedule, which the reserve holds (20 at 2 of 4, 30 at 7 of 9: 40, not 60)', async () => {
    // As a store per replica gave with seven reproductions to keep: 160 → 80 → 60 → 50 → 40 → 30 → 20.
    const f = await run([[true], [true], [true], [true], [true], [true, true, false, true, true, true, true, true, false], [true, false]], {
      reproduced: 3,
      attempts: 3,
    });
    expect(f.drops).toEqual(['6 at 2/4', '5 at 7/9']);
    expect({ index: f.index, rate: f.rate }).toEqual({ index: 4, rate: { reproduced: 10, attempts: 10 } });
  });

  it('measures the original, the last resort, in full whatever it misses, its own estimate counted in', async () => {
    // Its three estimate attempts (3 of 3) are not a lucky keep: seven more make its ten.
    const f = await run([[false, true], [false]], { reproduced: 3, attempts: 3 });
    expect(f.drops).toEqual(['1 at 0/2']);
    expect({ index: f.index, rate: f.rate, tries: f.tries }).toEqual({ index: 0, rate: { reproduced: 6, attempts: 10 }, tries: [7, 2] });
    // With nothing kept, the original's final rate is its estimate and the attempts the rest of `times` took.
    const alone = await run([[true, false]], { reproduced: 2, attempts: 3 });
    expect({ index: alone.index, rate: alone.rate, tries: alone.tries }).toEqual({
      index: 0,
      rate: { reproduced: 6, attempts: 10 },
      tries: [7],
    });
  });

  it('a back-off to the original fits where its full ten would not (CI: 62 kept on 4 of 4, dropped at 5 of 7, the original cut at 9)', async () => {
    // Attempts priced alike: the reserve of the original and one keep is 7 + 10; the keep dropped after 7.
    const reserve = finalReserveMs([1, 1], 10, 3);
    expect(reserve).toBe(17);
    const f = await run([[true], [true, false, true, true, true, true, false]], { reproduced: 3, attempts: 3 }, { deadlineAfter: reserve });
    expect({ index: f.index, rate: f.rate, cut: f.cut, drops: f.drops, tries: f.tries }).toEqual({
      index: 0,
      rate: { reproduced: 10, attempts: 10 },
      cut: undefined,
      drops: ['1 at 5/7'],
      tries: [7, 7],
    });
  });

  it('stops at the deadline and says so, keeping what it measured', async () => {
    const f = await run([[true], [true]], { reproduced: 3, attempts: 3 }, { deadlineAfter: 4 });
    expect({ index: f.index, rate: f.rate, cut: f.cut }).toEqual({ index: 1, rate: { reproduced: 4, attempts: 4 }, cut: true });
  });

  it('the reserve prices the last three kept schedules at their longest attempt', () => {
    expect(FINAL_LEVELS).toBe(3);
    expect(finalReserveMs([9000, 2500, 3000, 2000], 10)).toBe(10 * (2500 + 3000 + 2000));
    expect(finalReserveMs([9000], 10)).toBe(90_000);
    // The original's own estimate counts toward its final rate: its reserve is for the rest of its ten.
    expect(finalReserveMs([9000], 10, 3)).toBe(63_000);
    expect(finalReserveMs([9000, 2500, 3000], 10, 3)).toBe(7 * 9000 + 10 * (2500 + 3000));
    expect(finalReserveMs([9000, 2500, 3000, 2000], 10, 3)).toBe(10 * (2500 + 3000 + 2000));
  });

  it('within the reserve, a best and the schedule before it dropping (as seen: 18 at 4/6, 20 at 3/5) leave the third a whole measurement', async () => {
    const attemptsReserved = finalReserveMs([1, 1, 1, 1], 10);
    const f = await run(
      [[true], [true], [true, true, false, true, false], [true, true, false, true, true, false]],
      { reproduced: 3, attempts: 3 },
      { deadlineAfter: attemptsReserved },
    );
    expect({ index: f.index, rate: f.rate, cut: f.cut, drops: f.drops }).toEqual({
      index: 1,
      rate: { reproduced: 10, attempts: 10 },
      cut: undefined,
      drops: ['3 at 4/6', '2 at 3/5'],
    });
    // two schedules' worth of reserve (as before) cut the third at 9 of 10
    const two = await run(
      [[true], [true], [true, true, false, true, false], [true, true, false, true, true, false]],
      { reproduced: 3, attempts: 3 },
      { deadlineAfter: 20 },
    );
    expect({ index: two.index, cut: two.cut, attempts: two.rate.attempts }).toEqual({ index: 1, cut: true, attempts: 9 });
  });
});
