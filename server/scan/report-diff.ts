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
  const said = (report: ScanReport) =>
    new Set(report.problems.map((p) => JSON.stringify([p.path, p.code, p.message, p.bytes])));
  const [before, after] = [said(a), said(b)];
  for (const problem of a.problems)
    if (!after.has(JSON.stringify([problem.path, problem.code, problem.message, problem.bytes])))
      differing.add(problem.path);
  for (const problem of b.problems)
    if (!before.has(JSON.stringify([problem.path, problem.code, problem.message, problem.bytes])))
      differing.add(problem.path);
  return [...differing].sort();
}
