// What the read caps (server/stores/read-caps.ts) cost at their worst, and what they save: each
// reader of agents' files over a file of nothing but `{}` lines past the line cap (the most lines a
// byte can buy: every reader pays per line), and zstd bombs made by the real `zstd` — a Codex rollout
// of a few KB that expands to hundreds of MB of newlines — read by the reader and by a whole `scan`
// process. Results in bench/bounded-read-results.md.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { scanAgentshRoot } from "../server/stores/agentsh/agentsh-store.js";
import { readClaudeTranscript } from "../server/stores/claude/transcript.js";
import { readRollout } from "../server/stores/codex/rollout.js";
import { readGeminiChat } from "../server/stores/gemini/chat.js";
import { readSessionDetail } from "../server/stores/pi/session-detail.js";
import { READ_CHUNK_BYTES, readSessionFile } from "../server/stores/pi/read-session-file.js";
import { MAX_INFLATION, MAX_LINES } from "../server/stores/read-caps.js";
import { bombName, writeZstdBomb } from "../test-support/zstd-bomb.js";
import { median, writeResults } from "./measure.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const { values: flags } = parseArgs({ options: { quick: { type: "boolean", default: false } } });
const RUNS = flags.quick ? 2 : 5;
/** Newlines in each bomb: 100 MB and 300 MB, and 3 GB in a full run (its making alone takes a while). */
const BOMBS = flags.quick ? [100e6, 300e6] : [100e6, 300e6, 3e9];

const seconds = async (run: () => unknown) => {
  const started = performance.now();
  await run();
  return (performance.now() - started) / 1000;
};

async function main() {
  const home = mkdtempSync(join(tmpdir(), "session-retention-bounded-bench-"));
  try {
    // One file of `{}` lines past the cap, as each reader finds it.
    const braces = "{}\n".repeat(MAX_LINES + 1000);
    const file = (path: string) => {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, braces);
      return path;
    };
    const pi = file(join(home, "pi", "--w--", "s.jsonl"));
    const claude = file(join(home, "claude", "t.jsonl"));
    const gemini = file(join(home, "gemini", "session-x.jsonl"));
    const codex = file(
      join(home, "codex", "rollout-2026-01-05T10-00-00-019b8f2e-0000-7000-8000-000000000001.jsonl"),
    );
    const agentsh = join(home, "agentsh");
    file(join(agentsh, "sess", "llm-requests.jsonl"));
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    const { dev, ino, size } = statSync(pi);
    const readers: Array<[string, () => unknown]> = [
      ["pi: `readSessionFile` (the scan)", () => readSessionFile(pi, buffer)],
      ["pi: `readSessionDetail` (the dashboard's drawer)", () => readSessionDetail(pi, { dev, ino, size })],
      ["Claude Code: `readClaudeTranscript`", () => readClaudeTranscript(claude)],
      [
        "Gemini CLI: `readGeminiChat` (its cache missed)",
        () => {
          utimesSync(gemini, new Date(), new Date(Date.now() - 1000 * Math.random()));
          return readGeminiChat(gemini);
        },
      ],
      ["Codex: `readRollout`", () => readRollout(codex)],
      ["agentsh: `scanAgentshRoot` (counts the log's lines)", () => scanAgentshRoot(agentsh)],
    ];
    const rows: string[] = [];
    for (const [label, read] of readers) {
      await read(); // untimed: the page cache and the code are warm
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await seconds(read));
      rows.push(`| ${label} | ${median(runs).toFixed(3)} |`);
    }
    const capTable = [
      `| reader, over ${(MAX_LINES + 1000).toLocaleString("en")} lines of \`{}\` (${(braces.length / 1e6).toFixed(1)} MB) | seconds (median) |`,
      "| --- | ---: |",
      ...rows,
    ].join("\n");

    const cli = join(repo, "bin", "session-retention.js");
    const env = { ...process.env, HOME: home, PI_CODING_AGENT_DIR: join(home, "agent") };
    const bombRows: string[] = [];
    for (const [index, newlines] of BOMBS.entries()) {
      const root = join(home, `codex-${index}`);
      mkdirSync(join(root, "archived_sessions"), { recursive: true });
      const thread = `019b8f2e-0000-7000-8000-00000000b0${String(index).padStart(2, "0")}`;
      const path = join(root, "archived_sessions", bombName(thread));
      const onDisk = writeZstdBomb(path, thread, "/home/dev/bomb", newlines);
      const read = () => readRollout(path);
      const scan = () => {
        const run = spawnSync(process.execPath, [cli, "scan", "--store", `codex:${root}`, "--json"], {
          env,
          stdio: ["ignore", "ignore", "pipe"],
        });
        if (run.status !== 0) throw new Error(`scan failed: ${run.stderr}`);
      };
      const { capped } = read().facts;
      scan(); // untimed, as above
      const reads = [];
      const scans = [];
      for (let i = 0; i < RUNS; i++) {
        reads.push(await seconds(read));
        scans.push(await seconds(scan));
      }
      bombRows.push(
        `| ${(onDisk / 1024).toFixed(1)} KiB → ${(newlines / 1e6).toFixed(0)} MB | ${capped?.cap ?? "none"} (${((capped?.bytes ?? 0) / 1e6).toFixed(2)} MB read) | ${median(reads).toFixed(3)} | ${median(scans).toFixed(3)} |`,
      );
    }
    const bombTable = [
      "| bomb (on disk → newlines) | cap hit (decoded) | `readRollout` s | `scan` process s |",
      "| --- | --- | ---: | ---: |",
      ...bombRows,
    ].join("\n");

    const markdown = [
      "# Bounded reading benchmark",
      "",
      `\`npm run bench\` (bounded-read part${flags.quick ? ", --quick" : ""}) on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC · Node ${process.version} · ${cpus().length} CPUs. Medians of ${RUNS} runs, warm page cache. Caps: ${MAX_LINES.toLocaleString("en")} lines a file; a \`.zst\` decoded to ${MAX_INFLATION}× its size on disk.`,
      "",
      "Each reader at its worst: a file of nothing but `{}` lines, past the line cap (every reader pays per line, and a byte can buy no more lines).",
      "",
      capTable,
      "",
      "zstd bombs made by `zstd -19`: a Codex rollout whose `session_meta` line is followed by newlines; the `scan` process includes Node's start-up.",
      "",
      bombTable,
      "",
    ].join("\n");
    process.stdout.write(`\n${capTable}\n\n${bombTable}\n\n`);
    if (!flags.quick) await writeResults(join(repo, "bench", "bounded-read-results.md"), markdown);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
