// Comparing a scan of what changed with a fresh scan: the report as a fresh scan must give it, and
// waiting for a real watcher to have said all it will.
import type { ScanReport } from "../shared/scan-report.js";

/** A report as a fresh scan must give it: the order of records and problems is the walk's, not a fact. */
export function normalized(report: ScanReport) {
  const byPath = <T extends { path: string }>(items: readonly T[]) =>
    [...items].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const problems = [...report.problems].sort((a, b) =>
    `${a.path}\u0000${a.code}\u0000${a.message}` < `${b.path}\u0000${b.code}\u0000${b.message}` ? -1 : 1,
  );
  return {
    stores: report.stores,
    summary: report.summary,
    namespaces: byPath(report.namespaces.map((n) => ({ ...n, path: n.namespace }))),
    sessions: byPath(report.sessions).map((s) => ({ ...s, forks: s.forks && [...s.forks].sort() })),
    problems,
    orphanedMeta: report.orphanedMeta,
  };
}

/** Waits until no new event has come for a while (inotify delivers within milliseconds here). */
export async function settled(seen: Set<string>) {
  let size = -1;
  while (size !== seen.size) {
    size = seen.size;
    await new Promise((resolve) => setTimeout(resolve, 60));
  }
}
