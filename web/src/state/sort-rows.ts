// The sessions table's order: the rows sorted by the table's sorting state (TanStack's state, our
// sort). Each column's sort key is taken once per row (text lower-cased once, times as epoch
// seconds), then indexes are sorted on the keys: at 100,000 rows this is several times faster than a
// comparator that reads (and lower-cases) values per comparison, and no row objects are built.
import type { SessionRow } from "../../../shared/api.js";
import { AGENT_LABELS, type StoreKind } from "../../../shared/session-record.js";

export type SortableColumn =
  "path" | "store" | "namespace" | "sizeBytes" | "createdAt" | "modifiedAt" | "lastUsedAt" | "messageCount";

/** Agents sort by the name the column shows ("Claude Code" among "agentsh" and "pi"), not by kind. */
const AGENT_KEYS = Object.fromEntries(
  Object.entries(AGENT_LABELS).map(([kind, label]) => [kind, label.toLowerCase()]),
) as Record<StoreKind, string>;

/** A column's sort key: case-insensitive text, or a number. */
const KEYS: Record<SortableColumn, (row: SessionRow) => string | number> = {
  // The Session column shows a title (session-title.ts): sorted by it — named and first-message
  // sessions by their text, then the untitled ones (shown by their time) by path, which starts with
  // pi's time-stamped file name within a folder.
  path: (r) => (r.name?.trim() || r.lastPrompt || r.firstMessage || `\uffff${r.path}`).toLowerCase(),
  store: (r) => AGENT_KEYS[r.store],
  namespace: (r) => r.namespace.toLowerCase(),
  sizeBytes: (r) => r.sizeBytes,
  createdAt: (r) => r.createdSeconds,
  modifiedAt: (r) => r.modifiedSeconds,
  lastUsedAt: (r) => r.lastUsedSeconds,
  messageCount: (r) => r.messageCount,
};

/**
 * `rows` in the order of `sorting` (first entry first; `desc` reverses that entry only); ties keep
 * the rows' own order. The same array when there is nothing to sort by.
 */
export function sortRows(
  rows: SessionRow[],
  sorting: ReadonlyArray<{ id: string; desc: boolean }>,
): SessionRow[] {
  const entries = sorting.filter((s): s is { id: SortableColumn; desc: boolean } => s.id in KEYS);
  if (entries.length === 0 || rows.length < 2) return rows;
  const keyed = entries.map(({ id, desc }) => ({ keys: rows.map(KEYS[id]), sign: desc ? -1 : 1 }));
  const order = rows.map((_, i) => i);
  order.sort((a, b) => {
    for (const { keys, sign } of keyed) {
      const x = keys[a]!;
      const y = keys[b]!;
      if (x !== y) return (x < y ? -1 : 1) * sign;
    }
    return a - b;
  });
  return order.map((i) => rows[i]!);
}
