// The sessions table's selection as pure functions over id sets: a click toggles one row, a
// shift-click extends from the last clicked row over the rows as currently shown, and rows that
// may not be deleted (active, pinned, protected, recent…) are never added — except a session kept
// for its forks, which the detail drawer adds with its whole family (and a click takes out).

export interface Selectable {
  id: string;
  /** Why it may not be removed; such a row cannot be selected. */
  kept?: string;
}

/** The selection after clicking `target` (with shift: the range from `anchor` in the shown order). */
export function clickRow(
  selected: ReadonlySet<string>,
  shown: readonly Selectable[],
  target: Selectable,
  anchor: string | undefined,
  shift: boolean,
): Set<string> {
  const next = new Set(selected);
  // A kept row is never added; one the drawer added with its family (a fork parent) can be taken out.
  if (target.kept) {
    next.delete(target.id);
    return next;
  }
  const from = shift && anchor !== undefined ? shown.findIndex((r) => r.id === anchor) : -1;
  const to = shown.indexOf(target);
  if (from < 0 || to < 0) {
    if (next.has(target.id)) next.delete(target.id);
    else next.add(target.id);
    return next;
  }
  // A range takes the anchor's state: extending a selection selects, extending a deselection clears.
  const select = selected.has(anchor!);
  for (let i = Math.min(from, to); i <= Math.max(from, to); i++) {
    const row = shown[i]!;
    if (row.kept) continue;
    if (select) next.add(row.id);
    else next.delete(row.id);
  }
  return next;
}

/** Every selectable row among those shown (the filter's matches). */
export function selectAll(selected: ReadonlySet<string>, shown: readonly Selectable[]): Set<string> {
  const next = new Set(selected);
  for (const row of shown) if (!row.kept) next.add(row.id);
  return next;
}
