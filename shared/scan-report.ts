// The result of one scan: sessions, the problems that belong to no session, and the aggregates.
import { z } from "zod";
import { type SessionRecord, SessionRecordSchema, StoreRefSchema } from "./session-record.js";
import { compareSessions } from "./sort.js";

/** Things found in a store that are not sessions we can read: reported, never followed or deleted. */
export const ScanProblemSchema = z.object({
  code: z.enum(["symlink", "not-regular", "permission-denied", "unreadable"]),
  path: z.string(),
  message: z.string(),
});
export type ScanProblem = z.infer<typeof ScanProblemSchema>;

export const NamespaceUsageSchema = z.object({
  namespace: z.string(),
  sessionCount: z.number().int().nonnegative(),
  totalBytes: z.number().int().nonnegative(),
  /** Most recent `lastUsedAt` of its sessions. */
  lastUsedAt: z.string(),
});
export type NamespaceUsage = z.infer<typeof NamespaceUsageSchema>;

const SessionBriefSchema = SessionRecordSchema.pick({
  id: true,
  path: true,
  namespace: true,
  sizeBytes: true,
  createdAt: true,
  lastUsedAt: true,
});

export const ScanSummarySchema = z.object({
  sessionCount: z.number().int().nonnegative(),
  totalBytes: z.number().int().nonnegative(),
  namespaceCount: z.number().int().nonnegative(),
  /** Sessions that carry at least one warning. */
  sessionsWithWarnings: z.number().int().nonnegative(),
  warningCount: z.number().int().nonnegative(),
  problemCount: z.number().int().nonnegative(),
  /** Largest first. */
  largest: z.array(SessionBriefSchema),
  /** Oldest created, newest created. */
  oldest: SessionBriefSchema.optional(),
  newest: SessionBriefSchema.optional(),
});
export type ScanSummary = z.infer<typeof ScanSummarySchema>;

export const ScanStatsSchema = z.object({
  durationMs: z.number().nonnegative(),
  filesRead: z.number().int().nonnegative(),
  bytesRead: z.number().int().nonnegative(),
  cacheHits: z.number().int().nonnegative(),
});
export type ScanStats = z.infer<typeof ScanStatsSchema>;

export const ScanReportSchema = z.object({
  scannedAt: z.string(),
  stores: z.array(StoreRefSchema),
  summary: ScanSummarySchema,
  namespaces: z.array(NamespaceUsageSchema),
  sessions: z.array(SessionRecordSchema),
  problems: z.array(ScanProblemSchema),
  stats: ScanStatsSchema,
});
export type ScanReport = z.infer<typeof ScanReportSchema>;

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

/** Progress of a running scan: totals are known once the (cheap) walk is done. */
export const ScanProgressSchema = z.object({
  phase: z.enum(["walking", "reading", "done"]),
  filesDone: z.number().int().nonnegative(),
  filesTotal: z.number().int().nonnegative(),
  bytesDone: z.number().int().nonnegative(),
  bytesTotal: z.number().int().nonnegative(),
});
export type ScanProgress = z.infer<typeof ScanProgressSchema>;
