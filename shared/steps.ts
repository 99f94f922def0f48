// Long pure computations (a plan of 100,000 sessions) written once, as generators that `yield`
// between runs of work: the CLI and the extension run them to the end at once, the dashboard's
// server runs them a step at a time so that other requests are answered meanwhile.

/** A computation that pauses (`yield`s) between runs of work and returns a `T`. */
export type Steps<T> = Generator<void, T, void>;

/** Items a loop handles between two pauses: a few milliseconds of work at most. */
export const STEP = 2048;

/** Runs `steps` to the end without pausing. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** True once every `every` calls: where a long loop pauses (`if (pause()) yield;`). */
export function pacer(every = STEP): () => boolean {
  let calls = 0;
  return () => ++calls % every === 0;
}

/** How a computation in steps sorts: `sortSteps` (pausing) or `sortAtOnce` (the same order, faster). */
export type Sorter = <T>(items: readonly T[], compare: (a: T, b: T) => number) => Steps<T[]>;

/** The native sort, in one go: what a computation run to the end at once sorts with. */
// eslint-disable-next-line require-yield -- a step that never pauses
export function* sortAtOnce<T>(items: readonly T[], compare: (a: T, b: T) => number): Steps<T[]> {
  return [...items].sort(compare);
}

/**
 * `items` sorted by `compare` into a new array, pausing every `run` items: sorted runs, then merged
 * pairwise, the left item first on a tie — a stable sort, so the same order as
 * `[...items].sort(compare)`, which does all of it in one go.
 */
export function* sortSteps<T>(items: readonly T[], compare: (a: T, b: T) => number, run = STEP): Steps<T[]> {
  let runs: T[][] = [];
  for (let start = 0; start < items.length; start += run) {
    runs.push(items.slice(start, start + run).sort(compare));
    yield;
  }
  const pause = pacer(run);
  while (runs.length > 1) {
    const merged: T[][] = [];
    for (let i = 0; i < runs.length; i += 2) {
      const left = runs[i]!;
      const right = runs[i + 1];
      if (!right) {
        merged.push(left);
        continue;
      }
      const out: T[] = [];
      let l = 0;
      let r = 0;
      while (l < left.length && r < right.length) {
        out.push(compare(right[r]!, left[l]!) < 0 ? right[r++]! : left[l++]!);
        if (pause()) yield;
      }
      while (l < left.length) out.push(left[l++]!);
      while (r < right.length) out.push(right[r++]!);
      merged.push(out);
    }
    runs = merged;
  }
  return runs[0] ?? [];
}
