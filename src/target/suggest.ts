/**
 * "Did you mean" for names the user typed: a suite, a check id, a field of a target file or profile. The
 * nearest known name by edit distance, offered only when it is close enough to be a typo of it.
 */
import { z } from 'zod';

/** Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of neighbours cost 1. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** The known name nearest to `word` (case-insensitively), when at most a third of its letters (and at least one) differ. */
export function closestName(word: string, known: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(w, name.toLowerCase());
    if (!best || distance < best.distance) best = { name, distance };
  }
  const allowed = Math.max(1, Math.floor(word.length / 3));
  return best && best.distance <= allowed ? best.name : undefined;
}

/** ` (did you mean "x"?)` for the nearest known name, or '' when none is close. */
export function didYouMean(word: string, known: readonly string[]): string {
  const name = closestName(word, known);
  return name === undefined ? '' : ` (did you mean "${name}"?)`;
}

/** The field names a zod object schema accepts at `path` (through optional, default and array wrappers); [] when not an object. */
export function fieldsAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): string[] {
  let s: z.ZodType | undefined = unwrap(schema);
  for (const seg of path) {
    if (!s) return [];
    if (typeof seg === 'number') s = s instanceof z.ZodArray ? unwrap(s.element as z.ZodType) : undefined;
    else s = s instanceof z.ZodObject ? unwrap((s.shape as Record<string, z.ZodType>)[String(seg)]) : undefined;
  }
  return s instanceof z.ZodObject ? Object.keys(s.shape) : [];
}

function unwrap(s: z.ZodType | undefined): z.ZodType | undefined {
  let cur = s;
  while (cur instanceof z.ZodOptional || cur instanceof z.ZodDefault || cur instanceof z.ZodPrefault || cur instanceof z.ZodNullable) {
    cur = cur.unwrap() as z.ZodType;
  }
  return cur;
}
