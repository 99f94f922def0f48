// `npm run bench` (its Claude Code part): builds a synthetic Claude Code store of 20,000 sessions
// with their bundles (bench/synthetic-claude-store.ts) and measures, in one run and on the same
// machine state, our cold scan (a new process: `scan --json --store claude:DIR`, start-up included)
// and our warm scan (the second and later scans in one long-lived process, as the server rescans)
// beside `du -sb` and `gdu` on the same folder — and `xargs wc -l` over the transcripts, what reading
// every transcript once costs. Every process time is the median of N runs after one untimed run
// (warm page cache). Children get a temporary HOME, PI_CODING_AGENT_DIR and XDG dirs.
//
//   node dist/bench/claude-bench.js [--quick] [--runs N] [--keep] [--dir DIR] [--out FILE]
//
// `npm run bench -- FLAGS` gives the same flags to scan-bench.ts and to this (a shared --dir holds
// both: pi's stores in DIR/a and DIR/b, this one in DIR/claude); --out is for running one alone.
// --quick    a store 1/20 the size (development; results go to stdout only unless --out)
// --dir DIR  build the store in DIR/claude, or reuse it if DIR already holds this generator's store
// --keep     keep the temporary store (the path is printed; reuse it with --dir)
// --runs N   timed runs per measurement (default 5, 2 with --quick; the median is reported)
// --out FILE where to write the markdown results (default bench/claude-results.md for a full run)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  type Command,
  gitState,
  haveTime,
  machineLine,
  type Measurement,
  median,
  Runner,
  snapshotBuild,
  writeResults,
} from "./measure.js";
import {
  CLAUDE_FULL,
  CLAUDE_GENERATOR_VERSION,
  CLAUDE_QUICK,
  type ClaudeStoreStats,
  generateClaudeStore,
} from "./synthetic-claude-store.js";

const COLD_LIMIT = 2; // × `xargs wc -l`, as for pi
const WARM_LIMIT = 2; // × `gdu -n -p`, as for pi
/** × the warm scan: a watched change costs what it touched, not the store (pi's is ~0.01×). */
const UPDATE_LIMIT = 0.1;

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const rssPreload = join(repo, "dist", "bench", "rss-preload.js");
const warmChild = join(repo, "dist", "bench", "claude-warm-scan.js");

const { values: flags } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    dir: { type: "string" },
    runs: { type: "string" },
    out: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
  strict: true,
});
if (flags.help) {
  process.stdout.write(
    "Usage: node dist/bench/claude-bench.js [--quick] [--runs N] [--keep] [--dir DIR] [--out FILE]\n",
  );
  process.exit(0);
}
const runs = Number(flags.runs ?? (flags.quick ? "2" : "5"));
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`--runs wants a whole number ≥ 1, got ${flags.runs}`);
const spec = flags.quick ? CLAUDE_QUICK : CLAUDE_FULL;
const outFile = flags.out
  ? resolve(flags.out)
  : flags.quick
    ? undefined
    : join(repo, "bench", "claude-results.md");

const log = (message: string) => process.stderr.write(`${message}\n`);
const which = (tool: string) =>
  spawnSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" }).status === 0;

interface Marker {
  generator: number;
  quick: boolean;
  stats: ClaudeStoreStats;
}

/** The store in `dir`/claude: reused when this generator built it, else (re)built. */
async function prepareStore(dir: string): Promise<ClaudeStoreStats> {
  const markerFile = join(dir, "claude-store.json");
  if (existsSync(markerFile)) {
    try {
      const marker = JSON.parse(readFileSync(markerFile, "utf8")) as Marker;
      if (marker.generator === CLAUDE_GENERATOR_VERSION && marker.quick === flags.quick) {
        log(`reusing the Claude store in ${dir}`);
        return marker.stats;
      }
    } catch {}
  }
  const fs = statfsSync(dir);
  const need = spec.targetBytes * 1.5;
  if (fs.bavail * fs.bsize < need * 1.5)
    throw new Error(`not enough disk in ${dir}: the store needs about ${(need / 1e9).toFixed(1)} GB`);
  rmSync(markerFile, { force: true });
  const root = join(dir, "claude");
  rmSync(root, { recursive: true, force: true });
  log(`generating a Claude Code store of ${spec.sessions.toLocaleString("en")} sessions…`);
  const stats = await generateClaudeStore(spec, root, (done) => {
    if (done % 5_000 === 0) log(`  ${done.toLocaleString("en")} / ${spec.sessions.toLocaleString("en")}`);
  });
  log(
    `  ${stats.sessions} sessions, ${((stats.transcriptBytes + stats.bundleBytes) / 1e9).toFixed(2)} GB in ${stats.files} files, in ${stats.generateSeconds.toFixed(1)} s`,
  );
  log("sync (so write-back does not disturb the timings)…");
  spawnSync("sync", { stdio: "inherit" });
  writeFileSync(
    markerFile,
    JSON.stringify({ generator: CLAUDE_GENERATOR_VERSION, quick: flags.quick, stats } satisfies Marker),
  );
  return stats;
}

const secs = (m: Measurement) => median(m.seconds);
const fmtS = (s: number) => `${s.toFixed(3)} s`;
const peakMiB = (m: Measurement) => (m.rssKiB.length ? Math.max(...m.rssKiB) / 1024 : NaN);
const kb = (bytes: number) =>
  bytes >= 1e6
    ? `${(bytes / 1e6).toFixed(1)} MB`
    : bytes >= 1e3
      ? `${(bytes / 1e3).toFixed(0)} kB`
      : `${bytes} B`;

async function main() {
  const givenDir = flags.dir ? resolve(flags.dir) : undefined;
  if (givenDir) mkdirSync(givenDir, { recursive: true });
  const dir = givenDir ?? mkdtempSync(join(tmpdir(), "session-retention-claude-bench-"));
  const scratch = mkdtempSync(join(tmpdir(), "session-retention-claude-bench-home-"));
  try {
    const stats = await prepareStore(dir);
    const root = stats.root;
    const measured = gitState(repo);
    const build = join(scratch, "build");
    const cli = snapshotBuild(repo, build);
    log(`measuring ${measured} (a copy of its build in ${build})`);

    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.NODE_OPTIONS;
    delete env.CLAUDE_CONFIG_DIR;
    delete env.PI_CODING_AGENT_SESSION_DIR;
    for (const sub of ["home", "agent", "xdg-data", "xdg-config", "xdg-cache", "xdg-state"])
      mkdirSync(join(scratch, sub));
    Object.assign(env, {
      HOME: join(scratch, "home"),
      PI_CODING_AGENT_DIR: join(scratch, "agent"),
      XDG_DATA_HOME: join(scratch, "xdg-data"),
      XDG_CONFIG_HOME: join(scratch, "xdg-config"),
      XDG_CACHE_HOME: join(scratch, "xdg-cache"),
      XDG_STATE_HOME: join(scratch, "xdg-state"),
    });
    const runner = new Runner({ env, cwd: scratch, scratch, rssPreload });
    const results = new Map<string, Measurement>();
    const measure = (command: Command) => {
      log(`measuring ${command.label}…`);
      const m = runner.measure(command, runs);
      results.set(command.label, m);
      log(`  median ${fmtS(secs(m))}${m.rssKiB.length ? `, peak RSS ${peakMiB(m).toFixed(0)} MiB` : ""}`);
      return m;
    };

    const du = measure({ label: "du -sb", argv: ["du", "-sb", root] });
    const gdu = which("gdu") ? measure({ label: "gdu -n -p", argv: ["gdu", "-n", "-p", root] }) : undefined;
    if (!gdu) log("gdu is not installed: its baseline is left out (Debian: apt-get install gdu)");
    const wc = measure({
      label: "find … -name '*.jsonl' | xargs -0 wc -l",
      argv: ["sh", "-c", `find "$1" -name '*.jsonl' -print0 | xargs -0 wc -l`, "sh", root],
    });
    const nodeStart = measure({
      label: "Node start-up (node -e 0)",
      argv: [process.execPath, "-e", "0"],
      node: true,
    });
    const scan = (label: string, extra: string[]): Command => ({
      label,
      argv: [process.execPath, cli, "scan", "--store", `claude:${root}`, ...extra],
      node: true,
    });
    const coldJson = measure(scan("cold scan, --json", ["--json"]));
    const coldTable = measure(scan("cold scan, table", []));

    // Warm: one long-lived process per run, its first scan cold, then `runs` warm ones.
    log("measuring warm scans in one long-lived process…");
    const inProcess: {
      cold: number[];
      warm: number[];
      updates: number[];
      rssKiB: number[];
      sessions: number;
    } = {
      cold: [],
      warm: [],
      updates: [],
      rssKiB: [],
      sessions: 0,
    };
    for (let i = 0; i < 3; i++) {
      const child = spawnSync(process.execPath, [warmChild, build, root, String(runs)], {
        cwd: scratch,
        env,
        encoding: "utf8",
        maxBuffer: 16 * 1024 * 1024,
      });
      if (child.status !== 0) throw new Error(`warm scan child failed: ${child.stderr}`);
      const out = JSON.parse(child.stdout) as {
        times: number[];
        updates: number[];
        sessions: number;
        peakRssKiB: number;
      };
      inProcess.cold.push(out.times[0]! / 1000);
      inProcess.warm.push(...out.times.slice(1).map((ms) => ms / 1000));
      inProcess.updates.push(...out.updates.map((ms) => ms / 1000));
      inProcess.rssKiB.push(out.peakRssKiB);
      inProcess.sessions = out.sessions;
    }
    // A scan that misread the store would be measured for nothing: it must find every session and
    // every orphaned bundle the generator wrote, no more.
    if (inProcess.sessions !== stats.sessions + stats.orphans)
      throw new Error(
        `the scan found ${inProcess.sessions} records; the generator wrote ${stats.sessions} sessions and ${stats.orphans} orphaned bundles`,
      );
    const warm = median(inProcess.warm);
    const firstInProcess = median(inProcess.cold);
    const update = median(inProcess.updates);
    log(
      `  first scan in the process ${fmtS(firstInProcess)}, warm median ${fmtS(warm)}, watched update ${fmtS(update)}`,
    );
    runner.close();

    const ratio = (value: number, base: Measurement | undefined) =>
      base ? `${(value / secs(base)).toFixed(2)}×` : "n/a";
    const verdict = (value: number, base: Measurement | undefined, limit: number) =>
      base ? (value / secs(base) <= limit ? "**pass**" : "**FAIL**") : "n/a";
    const [cold, coldOther] =
      secs(coldJson) <= secs(coldTable) ? [coldJson, coldTable] : [coldTable, coldJson];
    const mode = (m: Measurement) => (m.label.includes("--json") ? "`--json`" : "table output");
    const rows = [
      `| \`du -sb\` | ${fmtS(secs(du))} | | | baseline |`,
      ...(gdu ? [`| \`gdu -n -p\` | ${fmtS(secs(gdu))} | | | baseline |`] : []),
      `| \`find … -name '*.jsonl' \\| xargs -0 wc -l\`, every \`.jsonl\` (transcripts, subagents', \`history.jsonl\`) | ${fmtS(secs(wc))} | | | baseline |`,
      `| Node start-up (\`node -e 0\`) | ${fmtS(secs(nodeStart))} | | | info |`,
      `| **cold scan** (a new process, ${mode(cold)}) | ${fmtS(secs(cold))} | ${ratio(secs(cold), wc)} \`wc -l\`, ${ratio(secs(cold), du)} \`du\` | ≤ ${COLD_LIMIT}× \`xargs wc -l\` | ${verdict(secs(cold), wc, COLD_LIMIT)} |`,
      `| cold scan (a new process, ${mode(coldOther)}) | ${fmtS(secs(coldOther))} | ${ratio(secs(coldOther), wc)} \`wc -l\` | | info |`,
      `| cold scan in the long-lived process (its first, no start-up) | ${fmtS(firstInProcess)} | ${ratio(firstInProcess, wc)} \`wc -l\` | | info |`,
      `| **warm scan** (the next scans in the same process, as the server rescans) | ${fmtS(warm)} | ${ratio(warm, gdu)} \`gdu\`, ${ratio(warm, du)} \`du\` | ≤ ${WARM_LIMIT}× \`gdu -n -p\` | ${verdict(warm, gdu, WARM_LIMIT)} |`,
      `| **watched update**: a line appended to one session, and the scan the server makes of that change (same process) | ${fmtS(update)} | ${(update / warm).toFixed(3)}× warm scan | ≤ ${UPDATE_LIMIT}× warm scan | ${update / warm <= UPDATE_LIMIT ? "**pass**" : "**FAIL**"} |`,
      `| peak RSS, cold scan (\`--json\`) | ${peakMiB(coldJson).toFixed(0)} MiB | | | info |`,
      `| peak RSS, long-lived process after ${runs + 1} scans | ${(Math.max(...inProcess.rssKiB) / 1024).toFixed(0)} MiB | | | info |`,
    ];
    const table = [
      "| measurement | seconds | ratio | target (as for pi) | result |",
      "| --- | ---: | ---: | --- | --- |",
      ...rows,
    ].join("\n");
    const clean = (command: string) =>
      command
        .replaceAll(build, ".")
        .replaceAll(dir, "$STORE")
        .replaceAll(process.execPath, "node")
        .replaceAll("|", "\\|");
    const details = [
      "| command | runs (s) | min | median | max | RSS (min–max) |",
      "| --- | --- | ---: | ---: | ---: | ---: |",
      ...[...results.values()].map(
        (m) =>
          `| \`${clean(m.command)}\` | ${m.seconds.map((s) => s.toFixed(3)).join(" ")} | ${Math.min(...m.seconds).toFixed(3)} | ${median(m.seconds).toFixed(3)} | ${Math.max(...m.seconds).toFixed(3)} | ${m.rssKiB.length ? `${(Math.min(...m.rssKiB) / 1024).toFixed(0)}–${peakMiB(m).toFixed(0)} MiB` : ""} |`,
      ),
      `| long-lived process, first scan of each (3 processes) | ${inProcess.cold.map((s) => s.toFixed(3)).join(" ")} | ${Math.min(...inProcess.cold).toFixed(3)} | ${firstInProcess.toFixed(3)} | ${Math.max(...inProcess.cold).toFixed(3)} | |`,
      `| long-lived process, watched updates (${runs} in each of 3) | ${inProcess.updates.map((s) => s.toFixed(3)).join(" ")} | ${Math.min(...inProcess.updates).toFixed(3)} | ${update.toFixed(3)} | ${Math.max(...inProcess.updates).toFixed(3)} | |`,
      `| long-lived process, warm scans (${runs} in each of 3) | ${inProcess.warm.map((s) => s.toFixed(3)).join(" ")} | ${Math.min(...inProcess.warm).toFixed(3)} | ${warm.toFixed(3)} | ${Math.max(...inProcess.warm).toFixed(3)} | ${(Math.min(...inProcess.rssKiB) / 1024).toFixed(0)}–${(Math.max(...inProcess.rssKiB) / 1024).toFixed(0)} MiB |`,
    ].join("\n");

    const parts = Object.entries(stats.parts)
      .map(([kind, count]) => `${kind} ${count.toLocaleString("en")}`)
      .join(", ");
    const markdown = [
      "# Claude Code scan benchmark",
      "",
      machineLine(
        `\`npm run bench\` (\`node dist/bench/claude-bench.js${flags.quick ? " --quick" : ""}\`)`,
        dir,
        measured,
      ),
      "",
      `A synthetic Claude Code store (deterministic, built by \`bench/synthetic-claude-store.ts\`): **${stats.sessions.toLocaleString("en")} sessions** and ${stats.orphans.toLocaleString("en")} orphaned bundles (side files whose transcript is gone) — ${inProcess.sessions.toLocaleString("en")} records; ${((stats.transcriptBytes + stats.bundleBytes) / 1e9).toFixed(2)} GB in ${stats.files.toLocaleString("en")} files and ${stats.folders.toLocaleString("en")} folders. Transcripts: ${(stats.transcriptBytes / 1e9).toFixed(2)} GB, ${stats.lines.toLocaleString("en")} lines; size p50 ${kb(stats.sizeP50)}, p90 ${kb(stats.sizeP90)}, p99 ${kb(stats.sizeP99)}, largest ${kb(stats.sizeMax)}; ${stats.imageLines.toLocaleString("en")} pasted screenshots, ${stats.longLines.toLocaleString("en")} of them longer than the adapter's 256 KiB parse cap, longest line ${kb(stats.longestLine)}. Bundles: ${(stats.bundleBytes / 1e9).toFixed(2)} GB — sessions with a ${parts}.`,
      "",
      `Each process time is a whole process (spawn and start-up included, wall clock, stdout to /dev/null): the median of ${runs} runs after one untimed run (warm page cache). The warm scan runs in one long-lived process (\`bench/claude-warm-scan.ts\`, 3 processes of 1 + ${runs} scans each, every scan given the last as \`previous\` as the server does): the median of the warm ones. Children run with a temporary \`HOME\`, \`PI_CODING_AGENT_DIR\` and XDG dirs. Peak RSS: ${haveTime ? "`/usr/bin/time -f %M`" : "`process.resourceUsage().maxRSS` in the child"}. Claude Code has no persistent scan cache (pi has one), so every new process reads every transcript.`,
      "",
      table,
      "",
      "<details><summary>Every run</summary>",
      "",
      details,
      "",
      "</details>",
      "",
    ].join("\n");
    process.stdout.write(`\n${table}\n\n`);
    if (outFile) {
      await writeResults(outFile, markdown);
      log(`written to ${outFile}`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    if (!givenDir && !flags.keep) rmSync(dir, { recursive: true, force: true });
    else log(`store kept in ${dir} (reuse with --dir ${dir}; remove with rm -r)`);
  }
}

await main();
