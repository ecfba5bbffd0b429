import { describe, expect, it } from 'vitest';
import { createProgress, statusText } from '../../src/run/progress.js';

function sink(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY, columns: 60, write: (s: string) => chunks.push(s) } };
}

describe('progress', () => {
  it('plain mode prints the start, throttled status lines and the end, one per line', () => {
    let t = 0;
    const { chunks, stream } = sink(false);
    const p = createProgress(stream, { now: () => t, plainEveryMs: 1000 });
    p.phase('conformance');
    p.update({ requests: 10, findings: 0 });
    t = 1500;
    p.update({ requests: 250, findings: 2, detail: 'suite auth' });
    t = 1600;
    p.update({ requests: 260, findings: 2 });
    p.end('97 checks, 2 findings');
    expect(chunks.join('')).toBe(
      'conformance: started\nconformance: 250 requests · 2 findings · suite auth\nconformance: 97 checks, 2 findings\n',
    );
    expect(chunks.every((c) => !c.includes('\r'))).toBe(true);
  });

  it('live mode rewrites one line in place, fits it to the terminal, and clears it before notes', () => {
    let t = 0;
    const { chunks, stream } = sink(true);
    const p = createProgress(stream, { live: true, now: () => t });
    p.phase('load read-budget');
    t = 300;
    p.update({
      requests: 12345,
      rate: 4100.4,
      refused: 900,
      findings: 0,
      detail: 'a long detail that will not fit in sixty columns at all',
    });
    t = 350;
    p.update({ requests: 1, rate: 1 }); // throttled
    p.note('skipped write-budget');
    p.end('done');
    const live = chunks.filter((c) => c.startsWith('\r\x1b[2K') && c.length > 5);
    expect(live).toHaveLength(2);
    expect(live[1]!.length).toBeLessThanOrEqual(60 + 4);
    expect(live[1]).toContain('load read-budget: 12,345 requests · 4,100/s · 900 × 429');
    expect(chunks.join('')).toContain('\r\x1b[2Kskipped write-budget\n');
    expect(chunks.at(-1)).toBe('load read-budget: done\n');
  });

  it('formats counters', () => {
    expect(statusText('x', { requests: 1, findings: 1 })).toBe('x: 1 requests · 1 finding');
  });
});
