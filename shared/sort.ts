// The three orders of the session list, with one deterministic tie-break: last used → size → path.
import type { SessionRecord } from "./session-record.js";

/** `lru`: least recently used first · `size`: largest first · `created`: oldest created first. */
export const SORT_ORDERS = ["lru", "size", "created"] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export const isSortOrder = (value: string): value is SortOrder =>
  (SORT_ORDERS as readonly string[]).includes(value);

type Sortable = Pick<SessionRecord, "lastUsedAt" | "sizeBytes" | "path" | "createdAt">;

/** What the orders look at in an item: for a record its fields; `lastUsed` may be a number that sorts as they do. */
export interface SortKeys<T> {
  lastUsed: (item: T) => string | number;
  size: (item: T) => number;
  path: (item: T) => string;
  created: (item: T) => string;
}

const byValue = <V extends string | number>(a: V, b: V) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Comparator for `Array.prototype.sort`, of any items by their `keys`. Least recently used first,
 * then largest, then by path: never two orders for the same input. Timestamps are ISO-8601 UTC
 * strings, so string order is time order.
 */
export function comparatorOf<T>(order: SortOrder, keys: SortKeys<T>): (a: T, b: T) => number {
  const { lastUsed, size, path, created } = keys;
  const tieBreak = (a: T, b: T) =>
    byValue(lastUsed(a), lastUsed(b)) || size(b) - size(a) || byValue(path(a), path(b));
  switch (order) {
    case "lru":
      return tieBreak;
    case "size":
      return (a, b) => size(b) - size(a) || tieBreak(a, b);
    case "created":
      return (a, b) => byValue(created(a), created(b)) || tieBreak(a, b);
  }
}

const recordKeys: SortKeys<Sortable> = {
  lastUsed: (s) => s.lastUsedAt,
  size: (s) => s.sizeBytes,
  path: (s) => s.path,
  created: (s) => s.createdAt,
};

/** Comparator of sessions (records, or anything with their sort fields) in `order`. */
export const compareSessions = (order: SortOrder): ((a: Sortable, b: Sortable) => number) =>
  comparatorOf(order, recordKeys);

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
