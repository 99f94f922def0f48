// The Claude benchmark's long-lived process: scans one Claude Code store `1 + RUNS` times in the same
// process, each time with the last look as `previous`, as the server rescans. The first scan is
// cold (nothing read yet in this process); the others are warm (the adapter keeps each
// transcript's facts per path and identity). Prints the times (ms), the sessions found and the
// process's peak RSS as JSON.
//
//   node dist/bench/claude-warm-scan.js BUILD ROOT RUNS
//
// BUILD is the copy of the build being measured (see snapshotBuild in measure.ts).
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
    roots: [],
    adapterStores: [{ kind: "claude", root }],
    ...(previous ? { previous } : {}),
  });
  times.push(performance.now() - started);
}
process.stdout.write(
  JSON.stringify({
    times,
    sessions: previous!.sessions.length,
    peakRssKiB: process.resourceUsage().maxRSS,
  }),
);
