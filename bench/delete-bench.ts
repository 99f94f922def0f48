// Soft delete of 1,000 sessions to the quarantine (same file system, journal on) and their restore,
// through the real CLI, beside a plain `mv` of the same files. Target: ≤ 5 s each on this machine.
// Run by `npm run bench` before the scan benchmark; results in bench/delete-results.md.
// `--quick`: 100 sessions, results on stdout only (the tracked results file is left as it is).
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Command, median, Runner, writeResults } from "./measure.js";

const quick = process.argv.includes("--quick");
const SESSIONS = quick ? 100 : 1000;
const RUNS = quick ? 2 : 3;
const TARGET_SECONDS = 5;
const repo = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const cli = join(repo, "bin", "session-retention.js");

const work = mkdtempSync(join(tmpdir(), "sr-delete-bench-"));
const template = join(work, "template");
const home = join(work, "home");
const agentDir = join(home, ".pi", "agent");
const store = join(agentDir, "sessions");
const env = {
  ...process.env,
  HOME: home,
  PI_CODING_AGENT_DIR: agentDir,
  XDG_DATA_HOME: join(home, ".local", "share"),
};

// SESSIONS pi-shaped session files of ~8 KB in 20 project folders, last used a year ago.
const old = new Date(Date.now() - 365 * 86_400_000);
for (let i = 0; i < SESSIONS; i++) {
  const folder = join(template, `--home-dev-project${i % 20}--`);
  mkdirSync(folder, { recursive: true });
  const id = `0190${String(i).padStart(4, "0")}-0000-7000-8000-${String(i).padStart(12, "0")}`;
  const header = JSON.stringify({
    type: "session",
    version: 3,
    id,
    timestamp: old.toISOString(),
    cwd: `/home/dev/project${i % 20}`,
  });
  const line = JSON.stringify({
    type: "message",
    id: "a",
    parentId: null,
    timestamp: old.toISOString(),
    message: { role: "user", content: "x".repeat(200) },
  });
  const file = join(folder, `2025-01-01T00-00-00-000Z_${id}.jsonl`);
  writeFileSync(file, `${header}\n${`${line}\n`.repeat(35)}`);
  utimesSync(file, old, old);
}
writeFileSync(
  join(work, "config.json"),
  JSON.stringify({
    retention: { maxAgeDays: 30, minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
    deletion: { target: "quarantine" },
  }),
);

function reset() {
  rmSync(home, { recursive: true, force: true });
  mkdirSync(agentDir, { recursive: true });
  cpSync(template, store, { recursive: true, preserveTimestamps: true });
}

const runner = new Runner({
  env,
  cwd: repo,
  scratch: work,
  rssPreload: join(repo, "dist", "bench", "rss-preload.js"),
});
const clean: Command = {
  label: `session-retention clean --yes (${SESSIONS} sessions → quarantine)`,
  argv: [process.execPath, cli, "clean", "--yes", "--config", join(work, "config.json")],
  node: true,
  before: reset,
};
const restore: Command = {
  label: `session-retention trash restore (${SESSIONS} sessions)`,
  argv: [],
  node: true,
  before: () => {
    reset();
    runner.once(clean);
    const list = spawnSync(process.execPath, [cli, "trash", "list", "--json"], { env, encoding: "utf8" });
    const ids = (JSON.parse(list.stdout) as { entries: { entryId: string }[] }).entries.map((e) => e.entryId);
    if (ids.length !== SESSIONS)
      throw new Error(`expected ${SESSIONS} entries in the trash, got ${ids.length}`);
    restore.argv = [process.execPath, cli, "trash", "restore", ...ids];
  },
};
const mv: Command = {
  label: `mv of the same ${SESSIONS} files (find -print0, xargs mv)`,
  argv: [
    "sh",
    "-c",
    `mkdir -p "${work}/moved" && find "${store}" -name '*.jsonl' -print0 | xargs -0 mv -t "${work}/moved"`,
  ],
  before: () => {
    reset();
    rmSync(join(work, "moved"), { recursive: true, force: true });
  },
};

const rows = [mv, clean, restore].map((command) => runner.measure(command, RUNS));
runner.close();
rmSync(work, { recursive: true, force: true });

const baseline = median(rows[0]!.seconds);
const lines = [
  `| measurement | seconds (median of ${RUNS}) | vs mv | target | result |`,
  "| --- | ---: | ---: | --- | --- |",
  ...rows.map((row, i) => {
    const seconds = median(row.seconds);
    return `| ${row.label} | ${seconds.toFixed(3)} s | ${i === 0 ? "" : `${(seconds / baseline).toFixed(1)}×`} | ${i === 0 ? "baseline" : `≤ ${TARGET_SECONDS} s`} | ${i === 0 ? "" : seconds <= TARGET_SECONDS ? "pass" : "FAIL"} |`;
  }),
];
const report = `# Delete benchmark\n\n${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${SESSIONS} sessions of ~8 KB, same file system, whole processes (start-up, scan, lock, recovery check, journal, audit included).\n\n${lines.join("\n")}\n`;
if (!quick) await writeResults(join(repo, "bench", "delete-results.md"), report);
console.log(report);
