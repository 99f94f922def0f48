// The Claude benchmark's long-lived process: scans one Claude Code store `1 + RUNS` times in the same
// process, each time with the last look as `previous`, as the server rescans. The first scan is
// cold (nothing read yet in this process); the others are warm (the adapter keeps each
// transcript's facts per path and identity). Then RUNS watched updates, as the server makes them
// when its watcher reports a path: a line appended to one session's transcript, and a scan given
// the last look and that path — the file is put back as it was afterwards. Prints the times (ms),
// the updates' times, the sessions found and the process's peak RSS as JSON.
//
//   node dist/bench/claude-warm-scan.js BUILD ROOT RUNS
//
// BUILD is the copy of the build being measured (see snapshotBuild in measure.ts).
import { appendFileSync, statSync, truncateSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ScanReport } from "../shared/scan-report.js";

const [build, root, runsText] = process.argv.slice(2) as [string, string, string];
const { scanStores } = (await import(
  pathToFileURL(join(build, "dist", "server", "scan", "scanner.js")).href
)) as typeof import("../server/scan/scanner.js");

const times: number[] = [];
let previous: ScanReport | undefined;
for (let i = 0; i <= Number(runsText); i++) {
  const started = performance.now();
  previous = await scanStores({
    stores: [{ kind: "claude", root }],
    ...(previous ? { previous } : {}),
  });
  times.push(performance.now() - started);
}
const updates: number[] = [];
const sessions = previous!.sessions.filter((s) => s.id.startsWith("claude:"));
for (let i = 0; i < Number(runsText); i++) {
  const session = sessions[(i * 7919) % sessions.length]!;
  const before = statSync(session.path);
  const line = `${JSON.stringify({ type: "user", sessionId: session.id.slice("claude:".length), timestamp: new Date().toISOString(), message: { role: "user", content: `appended while watched, ${i}` } })}\n`;
  appendFileSync(session.path, line);
  try {
    const started = performance.now();
    const next = await scanStores({
      stores: [{ kind: "claude", root }],
      previous: previous!,
      changed: new Set([session.path]),
    });
    updates.push(performance.now() - started);
    // An update that did not see the line would be measured for nothing.
    const grown = next.sessions.find((s) => s.id === session.id)?.sizeBytes;
    if (grown !== session.sizeBytes + Buffer.byteLength(line))
      throw new Error(
        `the update of ${session.path} says ${grown} bytes, not ${session.sizeBytes} + the line`,
      );
  } finally {
    truncateSync(session.path, before.size);
    utimesSync(session.path, before.atime, before.mtime);
  }
}
process.stdout.write(
  JSON.stringify({
    times,
    updates,
    sessions: previous!.sessions.length,
    peakRssKiB: process.resourceUsage().maxRSS,
  }),
);
