// A fresh home as a new user with every agent has it: pi's store (the demo generator's year of
// sessions), Claude Code's, Codex's and Gemini CLI's standard test stores (strays, sweeps and all)
// and a few agentsh sessions, with no config file. The overview's e2e spec and its screenshots use it.
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateDemoStore } from "../server/demo/demo-store.js";
import { writeClaudeStore } from "../test-support/claude-store.js";
import { writeCodexStore } from "../test-support/codex-store.js";
import { writeGeminiStore } from "../test-support/gemini-store.js";

const DAY = 86_400_000;

/** Writes the five stores into `home` at their default places; `now` dates pi's and agentsh's sessions. */
export function fourAgentsHome(home: string, now = new Date()) {
  generateDemoStore(join(home, ".pi", "agent", "sessions"), { now });
  writeClaudeStore(home);
  writeCodexStore(join(home, ".codex"));
  writeGeminiStore(home);
  const agentsh = join(home, ".agentsh", "sessions");
  for (const [i, daysAgo] of [2, 40, 200].entries()) {
    const folder = join(agentsh, `proxy-${i + 1}`);
    mkdirSync(folder, { recursive: true });
    const log = join(folder, "llm-requests.jsonl");
    writeFileSync(
      log,
      `${JSON.stringify({ request: i, model: "claude-sonnet-4-5" })}\n`.repeat(20 * (i + 1)),
    );
    const when = new Date(now.getTime() - daysAgo * DAY);
    utimesSync(log, when, when);
    utimesSync(folder, when, when);
  }
}
