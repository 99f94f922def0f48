// Where two scans of the same stores disagree, by path: what a reconciliation of a watched look
// against a full rescan counts as missed.
import type { ScanReport } from "../../shared/scan-report.js";

/**
 * The paths whose session record or problem differs between `a` and `b` (present in one only, or
 * saying something else), sorted. A record shared by both scans is the same without a look inside.
 */
export function differingPaths(a: ScanReport, b: ScanReport): string[] {
  const differing = new Set<string>();
  const records = new Map(a.sessions.map((s) => [s.path, s]));
  for (const record of b.sessions) {
    const before = records.get(record.path);
    records.delete(record.path);
    if (before !== record && JSON.stringify(before) !== JSON.stringify(record)) differing.add(record.path);
  }
  for (const path of records.keys()) differing.add(path);
  // A problem is what it says at its path: one said by only one of the scans differs.
  const said = (report: ScanReport) =>
    new Map(report.problems.map((p) => [JSON.stringify([p.path, p.code, p.message, p.bytes]), p.path]));
  const [before, after] = [said(a), said(b)];
  for (const [problem, path] of before) if (!after.has(problem)) differing.add(path);
  for (const [problem, path] of after) if (!before.has(problem)) differing.add(path);
  return [...differing].sort();
}
