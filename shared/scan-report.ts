// The result of one scan, as schemas: sessions, the problems that belong to no session, the aggregates.
// The functions that compute the aggregates are in scan-summary.ts (no zod there: the CLI's scan
// path must not pay zod's start-up cost).
import { z } from "zod";
import { SessionRecordSchema, StoreKindSchema, StoreRefSchema } from "./session-record.js";
import type { PiWithoutExtension } from "./unmarked-pi.js";

/**
 * Things found in a store that are not sessions we can read: reported, never followed, never a
 * candidate and never deleted. `not-a-session`: something that does not have the shape of a session
 * of its store (a pi file without a pi header or name, a folder without agentsh's request log or a
 * workspace's valid metadata, a file or folder where the store keeps none).
 */
export const ScanProblemSchema = z.object({
  code: z.enum(["symlink", "not-regular", "permission-denied", "unreadable", "not-a-session"]),
  path: z.string(),
  message: z.string(),
  /** Its size, when it is a file (or a measured folder). */
  bytes: z.number().int().nonnegative().optional(),
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

/** One agent's share: the sessions of every store of its kind, and their namespaces. */
export const AgentUsageSchema = z.object({
  kind: StoreKindSchema,
  sessionCount: z.number().int().nonnegative(),
  totalBytes: z.number().int().nonnegative(),
  /** Most recent `lastUsedAt` of its sessions; absent when its stores hold none. */
  lastUsedAt: z.string().optional(),
  /** Biggest first, as `namespaces` of the whole scan. */
  namespaces: z.array(NamespaceUsageSchema),
});
export type AgentUsage = z.infer<typeof AgentUsageSchema>;

const SessionBriefSchema = SessionRecordSchema.pick({
  id: true,
  name: true,
  lastPrompt: true,
  firstMessage: true,
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

/** A session-index file whose session is gone: a tiny cleanup candidate of its own. */
export const OrphanedMetaSchema = z.object({
  path: z.string(),
  sessionId: z.string(),
  sizeBytes: z.number().int().nonnegative(),
});

/** A pi process running without session-retention's extension (see `describePiWithoutExtension`). */
export const PiWithoutExtensionSchema = z.object({
  pid: z.number().int().positive(),
  cwd: z.string(),
  startedAt: z.string(),
}) satisfies z.ZodType<PiWithoutExtension>;

export const ScanReportSchema = z.object({
  scannedAt: z.string(),
  stores: z.array(StoreRefSchema),
  summary: ScanSummarySchema,
  namespaces: z.array(NamespaceUsageSchema),
  sessions: z.array(SessionRecordSchema),
  problems: z.array(ScanProblemSchema),
  /** Session-index files without a session (only when the scan was given the index folder). */
  orphanedMeta: z.array(OrphanedMetaSchema).optional(),
  stats: ScanStatsSchema,
  /** pi processes running without our extension (`scan --json` only, when there are any). */
  piWithoutExtension: z.array(PiWithoutExtensionSchema).optional(),
});
export type ScanReport = z.infer<typeof ScanReportSchema>;

/** Progress of a running scan: totals are known once the (cheap) walk is done. */
export const ScanProgressSchema = z.object({
  phase: z.enum(["walking", "reading", "done"]),
  filesDone: z.number().int().nonnegative(),
  filesTotal: z.number().int().nonnegative(),
  bytesDone: z.number().int().nonnegative(),
  bytesTotal: z.number().int().nonnegative(),
});
export type ScanProgress = z.infer<typeof ScanProgressSchema>;
