// Aggregates of a scan — totals, per-namespace usage, top-N, oldest and newest. Pure functions.
import type { NamespaceUsage, ScanProblem, ScanSummary } from "./scan-report.js";
import type { SessionRecord } from "./session-record.js";
import { compareSessions } from "./sort.js";

const brief = (s: SessionRecord) => ({
  id: s.id,
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

/** Totals, top-N largest, oldest and newest, warning counts. Pure: same input, same summary. */
export function summarizeSessions(
  sessions: readonly SessionRecord[],
  problems: readonly ScanProblem[],
  topN = 10,
): ScanSummary {
  const bySize = [...sessions].sort(compareSessions("size"));
  const byCreated = [...sessions].sort(compareSessions("created"));
  const oldest = byCreated[0];
  const newest = byCreated.at(-1);
  return {
    sessionCount: sessions.length,
    totalBytes: sessions.reduce((sum, s) => sum + s.sizeBytes, 0),
    namespaceCount: new Set(sessions.map((s) => s.namespace)).size,
    sessionsWithWarnings: sessions.filter((s) => s.warnings.length > 0).length,
    warningCount: sessions.reduce((sum, s) => sum + s.warnings.length, 0),
    problemCount: problems.length,
    largest: bySize.slice(0, Math.max(0, topN)).map(brief),
    ...(oldest ? { oldest: brief(oldest) } : {}),
    ...(newest ? { newest: brief(newest) } : {}),
  };
}
