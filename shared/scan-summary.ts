// Aggregates of a scan — totals, per-namespace usage, top-N, oldest and newest. Pure functions.
import type { NamespaceUsage, ScanProblem, ScanSummary } from "./scan-report.js";
import type { SessionRecord } from "./session-record.js";
import { compareSessions } from "./sort.js";

const brief = (s: SessionRecord) => ({
  id: s.id,
  ...(s.name !== undefined ? { name: s.name } : {}),
  path: s.path,
  namespace: s.namespace,
  sizeBytes: s.sizeBytes,
  createdAt: s.createdAt,
  lastUsedAt: s.lastUsedAt,
});

/** Per-namespace usage, biggest first (ties by name so the order is stable). */
export function summarizeNamespaces(sessions: readonly SessionRecord[]): NamespaceUsage[] {
  const byName = new Map<string, NamespaceUsage>();
  for (const s of sessions) {
    const usage = byName.get(s.namespace);
    if (!usage) {
      byName.set(s.namespace, {
        namespace: s.namespace,
        sessionCount: 1,
        totalBytes: s.sizeBytes,
        lastUsedAt: s.lastUsedAt,
      });
      continue;
    }
    usage.sessionCount += 1;
    usage.totalBytes += s.sizeBytes;
    if (s.lastUsedAt > usage.lastUsedAt) usage.lastUsedAt = s.lastUsedAt;
  }
  return [...byName.values()].sort(
    (a, b) =>
      b.totalBytes - a.totalBytes || (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : 0),
  );
}

/** The `n` first of `items` in `compare` order, without sorting them all (n is small, items many). */
function firstN<T>(items: readonly T[], n: number, compare: (a: T, b: T) => number): T[] {
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

/** Totals, top-N largest, oldest and newest, warning counts. Pure: same input, same summary. */
export function summarizeSessions(
  sessions: readonly SessionRecord[],
  problems: readonly ScanProblem[],
  topN = 10,
): ScanSummary {
  const byCreated = compareSessions("created");
  let oldest: SessionRecord | undefined;
  let newest: SessionRecord | undefined;
  let totalBytes = 0;
  let sessionsWithWarnings = 0;
  let warningCount = 0;
  const namespaces = new Set<string>();
  for (const s of sessions) {
    totalBytes += s.sizeBytes;
    namespaces.add(s.namespace);
    if (s.warnings.length > 0) sessionsWithWarnings += 1;
    warningCount += s.warnings.length;
    if (!oldest || byCreated(s, oldest) < 0) oldest = s;
    if (!newest || byCreated(s, newest) > 0) newest = s;
  }
  return {
    sessionCount: sessions.length,
    totalBytes,
    namespaceCount: namespaces.size,
    sessionsWithWarnings,
    warningCount,
    problemCount: problems.length,
    largest: firstN(sessions, topN, compareSessions("size")).map(brief),
    ...(oldest ? { oldest: brief(oldest) } : {}),
    ...(newest ? { newest: brief(newest) } : {}),
  };
}
