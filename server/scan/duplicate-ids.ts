// Sessions whose id another file has too: which they are, and which of them keeps the id. One
// answer for the full scan (`dedupeIds`, which gives the others a path-derived id and a warning)
// and for the `scan` table's warm way (overview.ts, which counts them from its columns).

/**
 * The sessions (indexes below `count`) that share an id, by id, in byte order of their paths: the
 * first keeps the id, so the result does not depend on walk order. Empty when every id is unique.
 */
export function duplicateHolders(
  count: number,
  idOf: (index: number) => string,
  pathOf: (index: number) => string,
): Map<string, number[]> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (let i = 0; i < count; i++) {
    const id = idOf(i);
    if (seen.has(id)) twice.add(id);
    else seen.add(id);
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
