// The three orders of the session list, with one deterministic tie-break: last used → size → path.
import type { SessionRecord } from "./session-record.js";

/** `lru`: least recently used first · `size`: largest first · `created`: oldest created first. */
export const SORT_ORDERS = ["lru", "size", "created"] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export const isSortOrder = (value: string): value is SortOrder =>
  (SORT_ORDERS as readonly string[]).includes(value);

type Sortable = Pick<SessionRecord, "lastUsedAt" | "sizeBytes" | "path" | "createdAt">;

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Least recently used first, then largest, then by path: never two orders for the same input. */
const tieBreak = (a: Sortable, b: Sortable) =>
  byString(a.lastUsedAt, b.lastUsedAt) || b.sizeBytes - a.sizeBytes || byString(a.path, b.path);

/**
 * Comparator for `Array.prototype.sort`. Timestamps are ISO-8601 UTC strings, so string order is
 * time order.
 */
export function compareSessions(order: SortOrder): (a: Sortable, b: Sortable) => number {
  switch (order) {
    case "lru":
      return tieBreak;
    case "size":
      return (a, b) => b.sizeBytes - a.sizeBytes || tieBreak(a, b);
    case "created":
      return (a, b) => byString(a.createdAt, b.createdAt) || tieBreak(a, b);
  }
}

/**
 * The `n` first of `items` in `compare` order, without sorting them all (n is small, items many):
 * the same as a (stable) sort and `slice(0, n)`, at a cost that grows with n × items.
 */
export function firstN<T>(items: readonly T[], n: number, compare: (a: T, b: T) => number): T[] {
  const top: T[] = [];
  if (n <= 0) return top;
  for (const item of items) {
    if (top.length === n && compare(item, top[n - 1]!) >= 0) continue;
    let at = top.length;
    while (at > 0 && compare(item, top[at - 1]!) < 0) at -= 1;
    top.splice(at, 0, item);
    if (top.length > n) top.pop();
  }
  return top;
}
