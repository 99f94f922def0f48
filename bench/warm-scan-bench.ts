// `npm run bench` (its warm-scan part): what the facts store (server/state/facts-store.ts) buys a new
// process. For a pi store and a Claude Code store of the same number of sessions it times, as whole
// processes (start-up included), our warm `scan` (table output; the facts store filled by an earlier
// run) beside a bare Node walk of the same tree (bench/bare-walk.ts), and our cold pi scan (an empty
// state folder each time) beside `find … | xargs wc -l`, with the peak RSS of each scan. Every
// command runs once untimed, then the commands take turns, round after round, so a machine whose
// load drifts (a shared one) weighs on all of them alike; each row gives the median and the range
// of its runs, and each ratio the median of the per-round ratios with their range — of wall time,
// and of CPU time (user + system, from /usr/bin/time), which the load of a shared machine moves
// least; the load average before each round is printed with them.
//
//   node dist/bench/warm-scan-bench.js [--quick] [--sessions N[,N…]] [--runs N] [--dir DIR] [--keep] [--out FILE]
//
// --quick       1,000 sessions, 3 rounds; results to stdout only unless --out
// --sessions    the store sizes to measure (default 20000); each builds a pi and a Claude Code store
// --runs N      rounds (default 7)
// --dir DIR     build the stores in DIR (DIR/warm-<N>), or reuse them if this generator built them there
// --keep        keep the temporary stores (the path is printed)
// --out FILE    the markdown results (default bench/warm-scan-results.md for a full run)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  type Command,
  gitState,
  machineLine,
  median,
  Runner,
  snapshotBuild,
  writeResults,
} from "./measure.js";
import { CLAUDE_FULL, CLAUDE_GENERATOR_VERSION, generateClaudeStore } from "./synthetic-claude-store.js";
import { FULL_STORES, GENERATOR_VERSION, generateStore } from "./synthetic-store.js";

const WARM_LIMIT = 1.5; // × the bare Node walk of the same tree
const COLD_LIMIT = 2; // × `xargs wc -l` over the pi store's files
const RSS_LIMIT_MIB = 300;

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const rssPreload = join(repo, "dist", "bench", "rss-preload.js");
const bareWalk = join(repo, "dist", "bench", "bare-walk.js");

const { values: flags } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    sessions: { type: "string" },
    runs: { type: "string" },
    dir: { type: "string" },
    keep: { type: "boolean", default: false },
    out: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
  strict: true,
});
if (flags.help) {
  process.stdout.write(
    "Usage: node dist/bench/warm-scan-bench.js [--quick] [--sessions N[,N…]] [--runs N] [--dir DIR] [--keep] [--out FILE]\n",
  );
  process.exit(0);
}
const rounds = Number(flags.runs ?? (flags.quick ? "3" : "7"));
const sizes = (flags.sessions ?? (flags.quick ? "1000" : "20000")).split(",").map(Number);
if (!Number.isInteger(rounds) || rounds < 1)
  throw new Error(`--runs wants a whole number ≥ 1, got ${flags.runs}`);
if (sizes.some((n) => !Number.isInteger(n) || n < 100))
  throw new Error(`--sessions wants whole numbers ≥ 100, got ${flags.sessions}`);
const outFile = flags.out
  ? resolve(flags.out)
  : flags.quick
    ? undefined
    : join(repo, "bench", "warm-scan-results.md");
const log = (message: string) => process.stderr.write(`${message}\n`);

/** pi's store A (20,000 sessions, 2 GB with screenshots) scaled to `n`; past 20,000, B's small sessions. */
const piSpec = (n: number) => {
  const [a, b] = FULL_STORES;
  return n <= 20_000
    ? {
        ...a!,
        sessions: n,
        targetLines: (a!.targetLines * n) / 20_000,
        targetBytes: (a!.targetBytes * n) / 20_000,
      }
    : { ...b!, sessions: n, folders: Math.max(b!.folders, Math.round(n / 500)) };
};
/** Claude Code's 20,000-session store scaled to `n` (its transcripts' bytes at most 2 GB). */
const claudeSpec = (n: number) => ({
  ...CLAUDE_FULL,
  sessions: n,
  targetLines: Math.min(CLAUDE_FULL.targetLines, (CLAUDE_FULL.targetLines * n) / 20_000),
  targetBytes: Math.min(CLAUDE_FULL.targetBytes, (CLAUDE_FULL.targetBytes * n) / 20_000),
});

/** The stores of size `n` in `dir`: reused when this generator built them, else built. */
async function prepare(dir: string, n: number) {
  const marker = join(dir, "stores.json");
  const version = { pi: GENERATOR_VERSION, claude: CLAUDE_GENERATOR_VERSION, n };
  const pi = join(dir, "pi");
  const claude = join(dir, "claude");
  if (existsSync(marker) && readFileSync(marker, "utf8") === JSON.stringify(version)) {
    log(`reusing the stores in ${dir}`);
    return { pi, claude };
  }
  rmSync(marker, { force: true });
  for (const root of [pi, claude]) rmSync(root, { recursive: true, force: true });
  log(`generating a pi store and a Claude Code store of ${n.toLocaleString("en")} sessions in ${dir}…`);
  await generateStore({ ...piSpec(n), name: "pi" }, pi);
  await generateClaudeStore(claudeSpec(n), claude);
  spawnSync("sync", { stdio: "inherit" });
  writeFileSync(marker, JSON.stringify(version));
  return { pi, claude };
}

interface Row {
  label: string;
  seconds: number[];
  rssKiB: number[];
  /** User + system seconds of each run (with /usr/bin/time). */
  cpu: number[];
}

const fmt = (s: number) => `${s.toFixed(3)} s`;
const range = (values: readonly number[], digits = 3) =>
  `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

async function main() {
  const given = flags.dir ? resolve(flags.dir) : undefined;
  const base = given ?? mkdtempSync(join(tmpdir(), "session-retention-warm-bench-"));
  const scratch = mkdtempSync(join(tmpdir(), "session-retention-warm-bench-home-"));
  // A build of its own: a rebuild of dist/ while this runs cannot change what is measured.
  const cli = snapshotBuild(repo, join(scratch, "build"));
  const sections: string[] = [];
  try {
    for (const n of sizes) {
      const dir = join(base, `warm-${n}`);
      mkdirSync(dir, { recursive: true });
      const stores = await prepare(dir, n);
      const home = (name: string) => {
        const h = join(scratch, name);
        return {
          HOME: h,
          PI_CODING_AGENT_DIR: join(h, "agent"),
          CLAUDE_CONFIG_DIR: join(h, "no-claude"),
          CODEX_HOME: join(h, "no-codex"),
          XDG_CONFIG_HOME: join(h, "config"),
          XDG_DATA_HOME: join(h, "data"),
          XDG_STATE_HOME: join(h, "state"),
          XDG_CACHE_HOME: join(h, "cache"),
        };
      };
      const runner = new Runner({
        env: { PATH: process.env.PATH, ...home(`warm-${n}`) },
        cwd: scratch,
        scratch,
        rssPreload,
      });
      const coldHome = home(`cold-${n}`);
      const commands: Command[] = [
        {
          label: "bare Node walk of the pi store",
          argv: [process.execPath, bareWalk, stores.pi],
          node: true,
        },
        {
          label: "**warm `scan`**, pi (table)",
          argv: [process.execPath, cli, "scan", "--root", stores.pi],
          node: true,
        },
        {
          label: "bare Node walk of the Claude Code store",
          argv: [process.execPath, bareWalk, stores.claude],
          node: true,
        },
        {
          label: "**warm `scan`**, Claude Code (table)",
          argv: [process.execPath, cli, "scan", "--store", `claude:${stores.claude}`],
          node: true,
        },
        {
          label: "`find … -name '*.jsonl' \\| xargs wc -l`, pi store",
          argv: ["sh", "-c", `find "${stores.pi}" -name '*.jsonl' -print0 | xargs -0 wc -l`],
        },
        {
          label: "**cold `scan`**, pi (table, an empty state folder)",
          argv: [
            "env",
            ...Object.entries(coldHome).map(([k, v]) => `${k}=${v}`),
            process.execPath,
            cli,
            "scan",
            "--root",
            stores.pi,
          ],
          before: () => rmSync(coldHome.HOME, { recursive: true, force: true }),
        },
      ];
      const rows: Row[] = commands.map((c) => ({ label: c.label, seconds: [], rssKiB: [], cpu: [] }));
      /** The 1-minute load average before each round: a shared machine's wall times wait on it. */
      const loads: number[] = [];
      log(
        `${n.toLocaleString("en")} sessions: one untimed pass (fills the facts store, warms the page cache)…`,
      );
      for (const command of commands) {
        command.before?.();
        runner.once(command);
      }
      for (let round = 0; round < rounds; round++) {
        loads.push(loadavg()[0]!);
        log(`  round ${round + 1} / ${rounds} (load ${loads.at(-1)!.toFixed(1)})`);
        commands.forEach((command, i) => {
          command.before?.();
          const trial = runner.once(command);
          rows[i]!.seconds.push(trial.seconds);
          if (trial.rssKiB !== undefined) rows[i]!.rssKiB.push(trial.rssKiB);
          if (trial.cpuSeconds !== undefined) rows[i]!.cpu.push(trial.cpuSeconds);
        });
      }
      runner.close();
      const [piWalk, piWarm, claudeWalk, claudeWarm, wc, piCold] = rows as [Row, Row, Row, Row, Row, Row];
      /** The median of the per-round ratios of `row` to `base`, and their range. */
      const ratio = (row: Row, against: Row, of: "seconds" | "cpu" = "seconds") => {
        const per = row[of].map((s, i) => s / against[of][i]!);
        return { median: median(per), per };
      };
      const verdict = (value: number, limit: number) => (value <= limit ? "pass" : "**FAIL**");
      const lines = [
        `### ${n.toLocaleString("en")} sessions`,
        "",
        "| measurement | median | range | peak RSS | ratio (median of rounds) | ratio range | CPU (median) | CPU ratio (range) | target | result |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |",
      ];
      const rss = (row: Row) =>
        row.rssKiB.length ? `${(Math.max(...row.rssKiB) / 1024).toFixed(0)} MiB` : "";
      const line = (row: Row, against?: Row, limit?: number, name = "") => {
        const r = against && ratio(row, against);
        const c = against && row.cpu.length > 0 && against.cpu.length > 0 && ratio(row, against, "cpu");
        const cpu = row.cpu.length ? fmt(median(row.cpu)) : "";
        lines.push(
          `| ${row.label} | ${fmt(median(row.seconds))} | ${range(row.seconds)} | ${rss(row)} | ${r ? `${r.median.toFixed(2)}× ${name}` : ""} | ${r ? range(r.per, 2) : ""} | ${cpu} | ${c ? `${c.median.toFixed(2)}× (${range(c.per, 2)})` : ""} | ${limit ? `≤ ${limit}× ${name}` : ""} | ${r && limit ? verdict(r.median, limit) : against ? "info" : "baseline"} |`,
        );
      };
      line(piWalk);
      line(piWarm, piWalk, WARM_LIMIT, "bare walk");
      line(claudeWalk);
      line(claudeWarm, claudeWalk, WARM_LIMIT, "bare walk");
      line(wc);
      line(piCold, wc, COLD_LIMIT, "`wc -l`");
      const peak = Math.max(...[piWarm, claudeWarm, piCold].flatMap((r) => r.rssKiB)) / 1024;
      lines.push(
        "",
        `Peak RSS of our scans: ${peak.toFixed(0)} MiB (target at 200,000 sessions: ≤ ${RSS_LIMIT_MIB} MiB). Load average (1 minute) before each round: ${range(loads, 1)}. The verdict is on wall time, as the target says; the CPU ratio (user + system time) is what the load moves least.`,
        "",
      );
      sections.push(lines.join("\n"));
      process.stdout.write(`${lines.join("\n")}\n`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    if (!given && !flags.keep) rmSync(base, { recursive: true, force: true });
    else log(`stores kept in ${base}`);
  }
  if (outFile) {
    const markdown = [
      "# Warm scans against a bare walk (`npm run bench`, bench/warm-scan-bench.ts)",
      "",
      machineLine(
        `node dist/bench/warm-scan-bench.js ${process.argv.slice(2).join(" ")}`.trim(),
        base,
        gitState(repo),
      ),
      "",
      `Each command once untimed, then ${rounds} rounds in turn; medians, ranges, and ratios as the median of the per-round ratios.`,
      "",
      ...sections,
    ].join("\n");
    await writeResults(outFile, markdown);
    log(`results: ${outFile}`);
  }
}

await main();
