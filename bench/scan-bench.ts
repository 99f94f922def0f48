// `npm run bench`: builds two synthetic pi stores and measures, in one run and on the same machine
// state, our scan beside `du`, `find`, `xargs wc -l`, `gdu`, `ncdu` and a bare Node walk
// (bench/bare-walk.ts: readdir + lstat, Node's start-up included) on the same files. Every
// measurement is a whole process (spawn and start-up included, wall time, stdout to /dev/null), the
// median of N runs after one untimed pass that warms the page cache. Every child gets a temporary
// HOME, PI_CODING_AGENT_DIR and XDG dirs: the real ~/.pi is never read or written.
//
//   npm run bench [-- --quick] [--runs N] [--keep] [--dir DIR] [--out FILE]
//
// (npm run bench gives the same flags to claude-bench.ts, which runs next; --out is for running one alone.)
// --quick    stores 1/20 the size (development; results go to stdout only unless --out)
// --dir DIR  build the stores in DIR, or reuse them if DIR already holds this generator's stores;
//            DIR is kept (only DIR/a, DIR/b and DIR/store.json are ever written or removed)
// --keep     keep the temporary stores (the path is printed; reuse it with --dir)
// --runs N   timed runs per measurement (default 5, 2 with --quick; the median is reported)
// --out FILE where to write the markdown results (default bench/results.md for a full run)
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statfsSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
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
  FULL_STORES,
  GENERATOR_VERSION,
  generateStore,
  QUICK_STORES,
  type StoreStats,
} from "./synthetic-store.js";

const RSS_LIMIT_MIB = 300;
const COLD_LIMIT = 2; // × `xargs wc -l`
const WARM_LIMIT = 2; // × `gdu -n -p`
const FLOOR_LIMIT = 1.5; // warm rescan, × the bare Node walk
/** Peak RSS of the warm rescans of B before issue 19 (bench/results.md of commit 6c33a65): no higher. */
const WARM_RSS_BEFORE_MIB = { table: 248, json: 267 };
const APPEND_LIMIT = 1.3; // × warm rescan
const APPEND_SHARE = 0.01;

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const rssPreload = join(repo, "dist", "bench", "rss-preload.js");
const bareWalk = join(repo, "dist", "bench", "bare-walk.js");
/** The CLI that is measured: a private copy of the build (see `snapshotBuild`). */
let cli = join(repo, "bin", "session-retention.js");

function log(message: string) {
  process.stderr.write(`${message}\n`);
}

const USAGE = `Usage: npm run bench [-- --quick] [--runs N] [--keep] [--dir DIR] [--out FILE]

  --quick    stores 1/20 the size (development; results go to stdout only unless --out)
  --dir DIR  build the stores in DIR, or reuse them if DIR already holds this generator's stores
             (DIR is kept; only DIR/a, DIR/b and DIR/store.json are written or removed)
  --keep     keep the temporary stores (the path is printed; reuse it with --dir)
  --runs N   timed runs per measurement (default 5, 2 with --quick; the median is reported)
  --out FILE where to write the markdown results (default bench/results.md for a full run)`;

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
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const runs = Number(flags.runs ?? (flags.quick ? "2" : "5"));
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`--runs wants a whole number ≥ 1, got ${flags.runs}`);
const specs = flags.quick ? QUICK_STORES : FULL_STORES;
const outFile = flags.out ? resolve(flags.out) : flags.quick ? undefined : join(repo, "bench", "results.md");

let interrupted = false;
process.on("SIGINT", () => {
  interrupted = true;
  log("interrupted: cleaning up after the current step…");
});
const checkInterrupted = () => {
  if (interrupted) throw new Error("interrupted");
};

// ---------------------------------------------------------------------------------------------
// Disk, stores
// ---------------------------------------------------------------------------------------------

interface Marker {
  generator: number;
  quick: boolean;
  stores: StoreStats[];
  /** Files the benchmark appends to, with their generated sizes (restored at the end and on reuse). */
  appendTargets: Array<{ path: string; size: number }>;
}

function checkDisk(where: string) {
  const needBytes = specs.reduce(
    (sum, s) => sum + (s.targetBytes || s.sessions * 8_000) + s.sessions * 4096,
    0,
  );
  const needFiles = specs.reduce((sum, s) => sum + s.sessions + s.folders, 0);
  const df = spawnSync("df", ["-h", where], { encoding: "utf8" });
  if (df.stdout) log(df.stdout.trimEnd());
  const fs = statfsSync(where);
  const freeBytes = fs.bavail * fs.bsize;
  if (freeBytes < needBytes * 1.5) {
    throw new Error(
      `not enough disk in ${where}: ${(freeBytes / 1e9).toFixed(1)} GB free, the stores need about ${(needBytes / 1e9).toFixed(1)} GB`,
    );
  }
  if (fs.files > 0 && fs.ffree < needFiles * 1.5) {
    throw new Error(`not enough inodes in ${where}: ${fs.ffree} free, the stores need about ${needFiles}`);
  }
}

async function prepareStores(dir: string): Promise<Marker> {
  const markerFile = join(dir, "store.json");
  if (existsSync(markerFile)) {
    try {
      const marker = JSON.parse(readFileSync(markerFile, "utf8")) as Marker;
      if (marker.generator === GENERATOR_VERSION && marker.quick === flags.quick) {
        restoreAppended(marker);
        log(`reusing the stores in ${dir}`);
        return marker;
      }
    } catch {}
  }
  checkDisk(dir);
  rmSync(markerFile, { force: true });
  const stores: StoreStats[] = [];
  for (const spec of specs) {
    const root = join(dir, spec.name);
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    log(`generating store ${spec.name}: ${spec.sessions.toLocaleString("en")} sessions…`);
    const stats = await generateStore(spec, root, (done) => {
      checkInterrupted();
      if (done % 10_000 === 0) log(`  ${done.toLocaleString("en")} / ${spec.sessions.toLocaleString("en")}`);
    });
    log(
      `  ${stats.sessions} sessions, ${(stats.bytes / 1e9).toFixed(2)} GB, ${stats.lines} lines in ${stats.generateSeconds.toFixed(1)} s`,
    );
    stores.push(stats);
  }
  log("sync (so write-back does not disturb the timings)…");
  spawnSync("sync", { stdio: "inherit" });
  const a = stores[0]!;
  const step = Math.round(1 / APPEND_SHARE);
  const appendTargets = a.files
    .filter((_, i) => i % step === 0)
    .map((path) => ({ path, size: statSync(path).size }));
  // Only store A's file list is needed later; B's would make the marker large for nothing.
  const marker: Marker = {
    generator: GENERATOR_VERSION,
    quick: flags.quick,
    stores: stores.map((s, i) => (i === 0 ? s : { ...s, files: [] })),
    appendTargets,
  };
  writeFileSync(markerFile, JSON.stringify(marker));
  return marker;
}

/** Cuts the files the benchmark appended to back to their generated size. */
function restoreAppended(marker: Marker) {
  for (const { path, size } of marker.appendTargets) {
    try {
      if (statSync(path).size > size) truncateSync(path, size);
    } catch {}
  }
}

let appendCounter = 0;
/** Appends one realistic user message line to each target file (pi's open-append-close). */
function appendToTargets(targets: Marker["appendTargets"]) {
  for (const { path } of targets) {
    appendCounter += 1;
    const id = (0x10000000 + appendCounter).toString(16);
    const now = new Date(Date.UTC(2026, 0, 1) + appendCounter * 1000);
    appendFileSync(
      path,
      `{"type":"message","id":"${id}","parentId":null,"timestamp":"${now.toISOString()}","message":{"role":"user","content":[{"type":"text","text":"One more thing: run the tests again and tell me what changed."}],"timestamp":${now.getTime()}}}\n`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Measuring
// ---------------------------------------------------------------------------------------------

function baselines(root: string, store: string): Command[] {
  return [
    { label: `du -sb (${store})`, argv: ["du", "-sb", root] },
    { label: `find -printf (${store})`, argv: ["find", root, "-printf", "%s %T@ %p\\n"] },
    ...(which("gdu") ? [{ label: `gdu -n -p (${store})`, argv: ["gdu", "-n", "-p", root] }] : []),
    ...(which("ncdu")
      ? [{ label: `ncdu -0 -o /dev/null (${store})`, argv: ["ncdu", "-0", "-o", "/dev/null", root] }]
      : []),
    {
      label: `find … | xargs -0 wc -l (${store})`,
      argv: ["sh", "-c", `find "$1" -name '*.jsonl' -print0 | xargs -0 wc -l`, "sh", root],
    },
  ];
}

/** The floor of a warm scan: Node starting, then readdir + lstat of every entry (bench/bare-walk.ts). */
const bareNodeWalk = (root: string, store: string): Command => ({
  label: `node bare-walk.js (${store})`,
  argv: [process.execPath, bareWalk, root],
  node: true,
});

function which(tool: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" }).status === 0;
}

const scan = (label: string, root: string, extra: string[], before?: () => void): Command => ({
  label,
  argv: [process.execPath, cli, "scan", "--root", root, ...extra],
  node: true,
  ...(before ? { before } : {}),
});

interface Row {
  measurement: string;
  value: string;
  ratio: string;
  target: string;
  result: string;
}

const secs = (m: Measurement) => median(m.seconds);
const fmtS = (s: number) => `${s.toFixed(3)} s`;
const peakMiB = (m: Measurement) => (m.rssKiB.length ? Math.max(...m.rssKiB) / 1024 : NaN);

async function main() {
  const givenDir = flags.dir ? resolve(flags.dir) : undefined;
  if (givenDir) mkdirSync(givenDir, { recursive: true });
  const dir = givenDir ?? mkdtempSync(join(tmpdir(), "session-retention-bench-"));
  const scratch = mkdtempSync(join(tmpdir(), "session-retention-bench-home-"));
  let marker: Marker | undefined;
  try {
    marker = await prepareStores(dir);
    checkInterrupted();
    const [a, b] = marker.stores as [StoreStats, StoreStats];
    const measured = gitState(repo);
    cli = snapshotBuild(repo, join(scratch, "build"));
    log(`measuring ${measured} (a copy of its build in ${join(scratch, "build")})`);

    const baseEnv: NodeJS.ProcessEnv = { ...process.env };
    delete baseEnv.PI_CODING_AGENT_SESSION_DIR;
    delete baseEnv.NODE_OPTIONS;
    for (const sub of ["home", "xdg-data", "xdg-config", "xdg-cache", "xdg-state", "agent-a", "agent-b"])
      mkdirSync(join(scratch, sub));
    Object.assign(baseEnv, {
      HOME: join(scratch, "home"),
      XDG_DATA_HOME: join(scratch, "xdg-data"),
      XDG_CONFIG_HOME: join(scratch, "xdg-config"),
      XDG_CACHE_HOME: join(scratch, "xdg-cache"),
      XDG_STATE_HOME: join(scratch, "xdg-state"),
    });
    // One agent dir (and so one scan cache) per store: a cache holding the other store's files
    // would be rewritten on every scan.
    const runnerFor = (agent: string) =>
      new Runner({
        env: { ...baseEnv, PI_CODING_AGENT_DIR: join(scratch, agent) },
        cwd: scratch,
        scratch,
        rssPreload,
      });
    const runA = runnerFor("agent-a");
    const runB = runnerFor("agent-b");
    const results = new Map<string, Measurement>();
    const measure = (runner: Runner, command: Command) => {
      checkInterrupted();
      log(`measuring ${command.label}…`);
      const m = runner.measure(command, runs);
      results.set(command.label, m);
      log(`  median ${fmtS(secs(m))}${m.rssKiB.length ? `, peak RSS ${peakMiB(m).toFixed(0)} MiB` : ""}`);
      return m;
    };

    // Store A: baselines, then cold, warm, appended.
    for (const c of baselines(a.root, "A")) measure(runA, c);
    const bareA = measure(runA, bareNodeWalk(a.root, "A"));
    const nodeStart = measure(runA, {
      label: "Node start-up (node -e 0)",
      argv: [process.execPath, "-e", "0"],
      node: true,
    });
    const ourStart = measure(runA, {
      label: "our start-up (--help)",
      argv: [process.execPath, cli, "--help"],
      node: true,
    });
    const coldJson = measure(runA, scan("cold scan A, --json --no-cache", a.root, ["--json", "--no-cache"]));
    const coldTable = measure(runA, scan("cold scan A, table --no-cache", a.root, ["--no-cache"]));
    runA.once(scan("prime cache A", a.root, ["--json"]));
    const warmJson = measure(runA, scan("warm rescan A, --json", a.root, ["--json"]));
    const warmTable = measure(runA, scan("warm rescan A, table", a.root, []));
    const append = () => appendToTargets(marker!.appendTargets);
    const appendedJson = measure(
      runA,
      scan("rescan A after 1% appended, --json", a.root, ["--json"], append),
    );
    const appendedTable = measure(runA, scan("rescan A after 1% appended, table", a.root, [], append));
    restoreAppended(marker);

    // Store B: baselines, then cold and warm with peak RSS.
    for (const c of baselines(b.root, "B")) measure(runB, c);
    const bareB = measure(runB, bareNodeWalk(b.root, "B"));
    const coldJsonB = measure(runB, scan("cold scan B, --json --no-cache", b.root, ["--json", "--no-cache"]));
    const coldTableB = measure(runB, scan("cold scan B, table --no-cache", b.root, ["--no-cache"]));
    runB.once(scan("prime cache B", b.root, ["--json"]));
    const warmJsonB = measure(runB, scan("warm rescan B, --json", b.root, ["--json"]));
    const warmTableB = measure(runB, scan("warm rescan B, table", b.root, []));
    runA.close();
    runB.close();

    // The table.
    const get = (label: string) => results.get(label);
    const wcA = get("find … | xargs -0 wc -l (A)")!;
    const gduA = get("gdu -n -p (A)");
    const wcB = get("find … | xargs -0 wc -l (B)")!;
    const gduB = get("gdu -n -p (B)");
    const rows: Row[] = [];
    const baselineRow = (m: Measurement | undefined, note = "baseline") => {
      if (m)
        rows.push({
          measurement: `\`${m.label.replaceAll("|", "\\|")}\``,
          value: fmtS(secs(m)),
          ratio: "",
          target: "",
          result: note,
        });
    };
    const targetRow = (
      name: string,
      m: Measurement,
      base: Measurement | undefined,
      limit: number,
      baseName: string,
    ) => {
      const ratio = base ? secs(m) / secs(base) : NaN;
      rows.push({
        measurement: name,
        value: fmtS(secs(m)),
        ratio: base ? `${ratio.toFixed(2)}×` : "n/a",
        target: `≤ ${limit}× ${baseName}`,
        result: base ? (ratio <= limit ? "**pass**" : "**FAIL**") : "n/a",
      });
    };
    const infoRow = (name: string, m: Measurement, base: Measurement | undefined, baseName: string) => {
      rows.push({
        measurement: name,
        value: fmtS(secs(m)),
        ratio: base ? `${(secs(m) / secs(base)).toFixed(2)}× ${baseName}` : "",
        target: "",
        result: "info",
      });
    };
    const rssRow = (name: string, m: Measurement, limit = RSS_LIMIT_MIB, limitName = "") => {
      const peak = peakMiB(m);
      rows.push({
        measurement: name,
        value: Number.isNaN(peak) ? "n/a" : `${peak.toFixed(0)} MiB`,
        ratio: Number.isNaN(peak) ? "" : `${(peak / limit).toFixed(2)}×`,
        target: `≤ ${limit} MiB${limitName}`,
        result: Number.isNaN(peak) ? "n/a" : peak <= limit ? "**pass**" : "**FAIL**",
      });
    };
    // The faster output mode stands for "our scan" in the targets; the other is shown too.
    const [cold, coldOther] =
      secs(coldJson) <= secs(coldTable) ? [coldJson, coldTable] : [coldTable, coldJson];
    const jsonWarmFaster = secs(warmJson) <= secs(warmTable);
    const [warm, warmOther] = jsonWarmFaster ? [warmJson, warmTable] : [warmTable, warmJson];
    const [appended, appendedOther] = jsonWarmFaster
      ? [appendedJson, appendedTable]
      : [appendedTable, appendedJson];
    const mode = (m: Measurement) => (m.label.includes("--json") ? "`--json`" : "table output");

    for (const label of ["du -sb (A)", "find -printf (A)", "gdu -n -p (A)", "ncdu -0 -o /dev/null (A)"])
      baselineRow(get(label));
    baselineRow(wcA);
    baselineRow(bareA);
    baselineRow(nodeStart, "info");
    baselineRow(ourStart, "info");
    targetRow(`**cold scan** A (${mode(cold)}, \`--no-cache\`)`, cold, wcA, COLD_LIMIT, "`xargs wc -l`");
    infoRow(`cold scan A (${mode(coldOther)})`, coldOther, wcA, "`wc -l`");
    targetRow("**warm rescan** A (table output)", warmTable, bareA, FLOOR_LIMIT, "bare Node walk");
    infoRow("warm rescan A (`--json`)", warmJson, bareA, "bare walk");
    if (gduA) {
      targetRow(`**warm rescan** A (${mode(warm)}), against \`gdu\``, warm, gduA, WARM_LIMIT, "`gdu -n -p`");
      infoRow(`warm rescan A (${mode(warmOther)}), against \`gdu\``, warmOther, gduA, "`gdu`");
    }
    targetRow(
      `**rescan after appending to 1%** of A (${mode(appended)})`,
      appended,
      warm,
      APPEND_LIMIT,
      "warm rescan",
    );
    infoRow(
      `rescan after appending to 1% of A (${mode(appendedOther)})`,
      appendedOther,
      warmOther,
      "its warm rescan",
    );
    for (const label of ["du -sb (B)", "find -printf (B)", "gdu -n -p (B)", "ncdu -0 -o /dev/null (B)"])
      baselineRow(get(label));
    baselineRow(wcB);
    baselineRow(bareB);
    infoRow("cold scan B (`--json`, `--no-cache`)", coldJsonB, wcB, "`wc -l`");
    infoRow("cold scan B (table output, `--no-cache`)", coldTableB, wcB, "`wc -l`");
    targetRow("**warm rescan** B (table output)", warmTableB, bareB, FLOOR_LIMIT, "bare Node walk");
    infoRow("warm rescan B (`--json`)", warmJsonB, bareB, "bare walk");
    if (gduB) {
      infoRow("warm rescan B (`--json`)", warmJsonB, gduB, "`gdu`");
      infoRow("warm rescan B (table output)", warmTableB, gduB, "`gdu`");
    }
    rssRow("**peak RSS, cold scan** of B (`--json`)", coldJsonB);
    rssRow("**peak RSS, warm rescan** of B (`--json`)", warmJsonB);
    rssRow("peak RSS, cold scan of B (table output)", coldTableB);
    rssRow("peak RSS, warm rescan of B (table output)", warmTableB);
    rssRow(
      "**peak RSS, warm rescan** of B (table output), against before",
      warmTableB,
      WARM_RSS_BEFORE_MIB.table,
      " (before)",
    );
    rssRow(
      "**peak RSS, warm rescan** of B (`--json`), against before",
      warmJsonB,
      WARM_RSS_BEFORE_MIB.json,
      " (before)",
    );

    const table = [
      "| measurement | seconds | ratio | target | result |",
      "| --- | ---: | ---: | --- | --- |",
      ...rows.map((r) => `| ${r.measurement} | ${r.value} | ${r.ratio} | ${r.target} | ${r.result} |`),
    ].join("\n");
    const details = [
      "| command | runs (s) | min | median | max | RSS (min–max) |",
      "| --- | --- | ---: | ---: | ---: | ---: |",
      ...[...results.values()].map(
        (m) =>
          `| \`${m.command.replaceAll(join(scratch, "build"), ".").replaceAll(dir, "$STORE").replaceAll(process.execPath, "node").replaceAll(repo, ".").replaceAll("|", "\\|")}\` | ${m.seconds.map((s) => s.toFixed(3)).join(" ")} | ${Math.min(...m.seconds).toFixed(3)} | ${median(m.seconds).toFixed(3)} | ${Math.max(...m.seconds).toFixed(3)} | ${m.rssKiB.length ? `${(Math.min(...m.rssKiB) / 1024).toFixed(0)}–${peakMiB(m).toFixed(0)} MiB` : ""} |`,
      ),
    ].join("\n");

    const storeLine = (name: string, s: StoreStats) =>
      `- **${name}**: ${s.sessions.toLocaleString("en")} sessions, ${(s.bytes / 1e9).toFixed(2)} GB, ${s.lines.toLocaleString("en")} lines in ${s.folders} \`--cwd--\` folders; session size p50 ${kb(s.sizeP50)}, p90 ${kb(s.sizeP90)}, p99 ${kb(s.sizeP99)}, largest ${kb(s.sizeMax)}; ${s.imageLines.toLocaleString("en")} base64-screenshot lines, longest line ${kb(s.longestLine)}.`;
    const markdown = [
      "# Scan benchmark",
      "",
      machineLine(`\`npm run bench${flags.quick ? " -- --quick" : ""}\``, dir, measured),
      "",
      "Synthetic stores in pi's v3 format (deterministic, built by `bench/synthetic-store.ts`):",
      "",
      storeLine("A", a),
      storeLine("B", b),
      "",
      `Each time is a whole process (spawn and start-up included, wall clock, stdout to /dev/null): the median of ${runs} runs after one untimed run (warm page cache). Children run with a temporary \`HOME\`, \`PI_CODING_AGENT_DIR\` and XDG dirs. "Rescan after appending" appends one line to ${marker.appendTargets.length} files (1%) before every run. Peak RSS is the scan process's own (${haveTime ? "`/usr/bin/time -f %M`" : "`process.resourceUsage().maxRSS` in the child"}), the largest of the runs. Where JSON and table output differ in speed, the faster one stands for the target and the other is listed as info, except against the bare Node walk (\`node bare-walk.js\`: \`readdirSync\` + \`lstatSync\` of every entry, Node's start-up included), whose target is the table output's, the default; "before" is the peak RSS of the warm rescans before issue 19 (${WARM_RSS_BEFORE_MIB.table} MiB table, ${WARM_RSS_BEFORE_MIB.json} MiB JSON).`,
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
    if (marker) restoreAppended(marker);
    rmSync(scratch, { recursive: true, force: true });
    if (!givenDir && !flags.keep) {
      rmSync(dir, { recursive: true, force: true });
    } else {
      log(`stores kept in ${dir} (reuse with --dir ${dir}; remove with rm -r)`);
    }
  }
}

const kb = (bytes: number) =>
  bytes >= 1e6
    ? `${(bytes / 1e6).toFixed(1)} MB`
    : bytes >= 1e3
      ? `${(bytes / 1e3).toFixed(0)} kB`
      : `${bytes} B`;

await main();
