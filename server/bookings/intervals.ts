/**
 * Half-open numeric intervals [start, end), as epoch milliseconds in the
 * availability engine. Every function takes and returns lists sorted by
 * start, without overlaps and without empty intervals ("normalized"), except
 * `merge`, which makes any list normalized. Each runs in linear time over its
 * inputs, so the engine never loops per minute.
 */
export type Interval = { start: number; end: number };

/** Sorts, drops empty intervals and joins overlapping or touching ones. */
export function merge(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && i.start <= last.end) {
      if (i.end > last.end) last.end = i.end;
    } else {
      out.push({ start: i.start, end: i.end });
    }
  }
  return out;
}

/** The parts covered by both lists (both normalized). */
export function intersect(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as Interval;
    const y = b[j] as Interval;
    const start = Math.max(x.start, y.start);
    const end = Math.min(x.end, y.end);
    if (start < end) out.push({ start, end });
    // Move past whichever interval ends first; the other may still meet the next one.
    if (x.end < y.end) i++;
    else j++;
  }
  return out;
}

/** The parts of `a` not covered by `b` (both normalized). */
export function subtract(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let j = 0;
  for (const x of a) {
    let start = x.start;
    // Intervals of b that end before this one starts cannot touch it or any later one.
    while (j < b.length && (b[j] as Interval).end <= start) j++;
    let k = j;
    while (k < b.length && (b[k] as Interval).start < x.end) {
      const y = b[k] as Interval;
      if (y.start > start) out.push({ start, end: y.start });
      start = Math.max(start, y.end);
      if (start >= x.end) break;
      k++;
    }
    if (start < x.end) out.push({ start, end: x.end });
  }
  return out;
}
