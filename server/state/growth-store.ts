// Growth snapshots on disk: one small JSON file per set of stores (a scan of another --root must
// not mix into the history of the usual stores), updated after every scan, coalesced per hour.
import { createHash } from "node:crypto";
import { renameSync } from "node:fs";
import { join } from "node:path";
import { addGrowthPoint, backfillGrowth, type GrowthPoint } from "../../shared/growth.js";
import type { ScanReport } from "../../shared/scan-report.js";
import { readSmallTextFile, UnreadableFileError } from "../fs/read-small-file.js";
import { writePrivateFile } from "../fs/private-files.js";

/** 400 daily points with a namespace breakdown stay far below this even for thousands of namespaces. */
const MAX_BYTES = 64 * 1024 * 1024;

/** The growth file of a set of stores, in the state dir. */
export function growthFile(stateDir: string, stores: ReadonlyArray<{ kind: string; root: string }>): string {
  const key = stores
    .map((s) => `${s.kind}:${s.root}`)
    .sort()
    .join("\n");
  return join(stateDir, "growth", `${createHash("sha256").update(key).digest("hex").slice(0, 16)}.json`);
}

/**
 * The points, oldest first; a missing or unreadable file has none, a corrupt one — or one that is
 * not a small UTF-8 file (a FIFO, too big, bad bytes) — is set aside (never fatal, never overwritten).
 */
export function readGrowth(file: string): GrowthPoint[] {
  try {
    const parsed = JSON.parse(readSmallTextFile(file, { maxBytes: MAX_BYTES, what: "growth file" })) as {
      version?: number;
      points?: GrowthPoint[];
    };
    if (parsed.version === 1 && Array.isArray(parsed.points)) return parsed.points;
  } catch (error) {
    // A system error (none yet, no permission) is not the file's fault: there is nothing to set aside.
    if (error instanceof UnreadableFileError && error.code !== undefined) return [];
  }
  renameSync(file, `${file}.corrupt-${Date.now()}`);
  return [];
}

/**
 * Records the scan as a growth point; on the first scan, backfills the last 30 days as estimates.
 * `existing`: the file's points, when the caller has just read them.
 */
export function recordGrowth(
  file: string,
  report: Pick<ScanReport, "namespaces"> & {
    /** What a first point is backfilled from: each session's creation, size and namespace. */
    sessions: Parameters<typeof backfillGrowth>[0];
    summary: Pick<ScanReport["summary"], "totalBytes" | "sessionCount">;
  },
  now = new Date(),
  existing = readGrowth(file),
): GrowthPoint[] {
  const base = existing.length > 0 ? existing : backfillGrowth(report.sessions, now);
  const ns: Record<string, [number, number]> = {};
  for (const n of report.namespaces) ns[n.namespace] = [n.totalBytes, n.sessionCount];
  const points = addGrowthPoint(
    base,
    { bytes: report.summary.totalBytes, count: report.summary.sessionCount, ns },
    now,
  );
  const text = JSON.stringify({ version: 1, points });
  // The same hour's point again, unchanged (a Prometheus scrape every 15 s of a quiet store): the
  // file already says it, so nothing is written.
  if (existing.length > 0 && text === JSON.stringify({ version: 1, points: existing })) return points;
  writePrivateFile(file, text);
  return points;
}
