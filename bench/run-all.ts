// `npm run bench [-- --quick] [scan options]`: every benchmark, one after the other, each in its own
// process. `--quick` reaches every one of them (small stores, results on stdout only, no tracked
// results file rewritten); the scan options (--runs, --keep, --dir, --out) go to the two scan
// benchmarks that take them. Stops at the first benchmark that fails.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes("--quick") ? ["--quick"] : [];

const benchmarks: ReadonlyArray<readonly [file: string, args: readonly string[]]> = [
  ["delete-bench.js", quick],
  ["api-delete-bench.js", quick],
  ["server-bench.js", quick],
  ["watch-bench.js", quick],
  ["extension-bench.js", quick],
  ["scan-bench.js", args],
  ["claude-bench.js", args],
  ["warm-scan-bench.js", quick],
  ["codex-bench.js", quick],
  ["bounded-read-bench.js", quick],
];

// A new benchmark is part of the chain or says why not: only the dashboard's (a Chromium, `npm run
// bench:ui`) runs on its own.
const forgotten = readdirSync(here).filter(
  (f) => f.endsWith("-bench.js") && f !== "ui-bench.js" && !benchmarks.some(([b]) => b === f),
);
if (forgotten.length) throw new Error(`bench/run-all.ts does not run ${forgotten.join(", ")}`);

for (const [file, given] of benchmarks) {
  const started = Date.now();
  console.log(`\n::: ${file.replace(/\.js$/, "")} ${given.join(" ")}`);
  const run = spawnSync(process.execPath, [join(here, file), ...given], { stdio: "inherit" });
  if (run.status !== 0) {
    console.error(`${file} failed (${run.signal ?? `exit ${run.status}`})`);
    process.exit(run.status ?? 1);
  }
  console.log(`::: ${file.replace(/\.js$/, "")} took ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
