// Sessions whose id another file has too: which they are, and which of them keeps the id. One
// answer for the full scan (`dedupeIds`, which gives the others a path-derived id and a warning)
// and for the `scan` table's warm way (overview.ts, which counts them from its columns). A watched
// update counts only what changed (`IdCounts`): a set of every id, made anew on each of a few
// updates a second, was a fifth of an update's time at 100,000 sessions.

/**
 * How many records hold each id, kept from one scan to the next. Never changed once made: `after`
 * gives the counts of the next scan, so a scan that is dropped leaves its previous one's counts as
 * they were. What changed is held apart from the full count, until it grows past an eighth of it.
 */
export class IdCounts {
  private constructor(
    private readonly whole: ReadonlyMap<string, number>,
    /** The difference from `whole`, by id: never 0. */
    private readonly delta: ReadonlyMap<string, number>,
    /** The ids held more than once. */
    readonly duplicated: ReadonlySet<string>,
  ) {}

  /** Counts every id (a full scan's). */
  static of(ids: Iterable<string>): IdCounts {
    const whole = new Map<string, number>();
    const duplicated = new Set<string>();
    for (const id of ids) {
      const count = (whole.get(id) ?? 0) + 1;
      whole.set(id, count);
      if (count === 2) duplicated.add(id);
    }
    return new IdCounts(whole, new Map(), duplicated);
  }

  count(id: string): number {
    return (this.whole.get(id) ?? 0) + (this.delta.get(id) ?? 0);
  }

  /** The counts once the records holding `gone` went and those holding `came` came (an id once per record). */
  after(gone: Iterable<string>, came: Iterable<string>): IdCounts {
    const delta = new Map(this.delta);
    const touched = new Set<string>();
    const add = (id: string, by: number) => {
      const next = (delta.get(id) ?? 0) + by;
      if (next === 0) delta.delete(id);
      else delta.set(id, next);
      touched.add(id);
    };
    for (const id of gone) add(id, -1);
    for (const id of came) add(id, 1);
    if (touched.size === 0) return this;
    const duplicated = new Set(this.duplicated);
    for (const id of touched)
      if ((this.whole.get(id) ?? 0) + (delta.get(id) ?? 0) > 1) duplicated.add(id);
      else duplicated.delete(id);
    if (delta.size <= this.whole.size / 8) return new IdCounts(this.whole, delta, duplicated);
    const whole = new Map(this.whole);
    for (const [id, by] of delta) {
      const count = (whole.get(id) ?? 0) + by;
      if (count > 0) whole.set(id, count);
      else whole.delete(id);
    }
    return new IdCounts(whole, new Map(), duplicated);
  }
}

/**
 * The sessions (indexes below `count`) that share an id, by id, in byte order of their paths: the
 * first keeps the id, so the result does not depend on walk order. Empty when every id is unique.
 * `duplicated`: the ids held more than once, when known already (`IdCounts`): no set of every id.
 */
export function duplicateHolders(
  count: number,
  idOf: (index: number) => string,
  pathOf: (index: number) => string,
  duplicated?: ReadonlySet<string>,
): Map<string, number[]> {
  let twice = duplicated;
  if (!twice) {
    const seen = new Set<string>();
    const found = new Set<string>();
    for (let i = 0; i < count; i++) {
      const id = idOf(i);
      if (seen.has(id)) found.add(id);
      else seen.add(id);
    }
    twice = found;
  }
  const holders = new Map<string, number[]>();
  if (twice.size === 0) return holders;
  for (let i = 0; i < count; i++) {
    const id = idOf(i);
    if (!twice.has(id)) continue;
    const list = holders.get(id);
    if (list) list.push(i);
    else holders.set(id, [i]);
  }
  for (const list of holders.values())
    list.sort((a, b) => (pathOf(a) < pathOf(b) ? -1 : pathOf(a) > pathOf(b) ? 1 : 0));
  return holders;
}
