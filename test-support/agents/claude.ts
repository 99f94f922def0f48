// Claude Code as the real-agent suite drives it: the pinned CLI (test-agents; a native binary)
// pointed at the mock model (`ANTHROPIC_BASE_URL`, an API key Claude's config has approved, no
// non-essential traffic), with onboarding done, the projects trusted and edits accepted without a
// prompt; print mode, interactive in tmux, and its own list — the `--resume` picker with every
// project shown (Ctrl+A), read from the screen. The picker shows titles, not ids, so every prompt
// of a test's session starts with a token of its own (`[a1] …`), and the test registers which
// session each token names.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SessionRecord } from "../../shared/session-record.js";
import { type AgentInTmux, startInTmux } from "../agent-tmux.js";
import { agentBin } from "../test-agents.js";
import type { AgentUnderTest } from "./checks.js";
import { runCommand, type Run, type Sandbox } from "./sandbox.js";

/** The key Claude is given; its config approves it by its last 20 characters. */
const API_KEY = "sk-ant-mock-0123456789abcdefghij";

/** What Claude's footer shows once it is ready for input (edits accepted without a prompt). */
const READY = "accept edits on";

export interface ClaudeDriver extends AgentUnderTest {
  /** `claude -p <prompt> <args>` in `cwd`. */
  print(cwd: string, prompt: string, ...args: string[]): Promise<Run>;
  /** Claude interactive in tmux in `cwd`, ready for input. */
  interactive(cwd: string, ...args: string[]): Promise<AgentInTmux>;
  /** Says that prompts starting `[token]` are session `id`'s (Claude's uuid). */
  register(token: string, id: string): void;
  /** The titles Claude's `--resume` picker shows, every project's, top to bottom. */
  picker(): Promise<string[]>;
}

/**
 * Writes Claude's config in the sandbox — `.claude.json` (in `CLAUDE_CONFIG_DIR`) with onboarding
 * done, the key approved, the auto-mode offer seen and `projects` trusted; `settings.json` with
 * `permissions.defaultMode: acceptEdits` (auto mode would ask a classifier on Anthropic's servers)
 * — and returns the driver.
 */
export function claudeDriver(sandbox: Sandbox, modelUrl: string, projects: readonly string[]): ClaudeDriver {
  const bin = agentBin("claude");
  const configDir = sandbox.env.CLAUDE_CONFIG_DIR!;
  mkdirSync(configDir, { recursive: true });
  writeFileSync(
    join(configDir, ".claude.json"),
    JSON.stringify({
      hasCompletedOnboarding: true,
      hasSeenAutoDefaultNudge: true,
      customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
      projects: Object.fromEntries(projects.map((p) => [p, { hasTrustDialogAccepted: true }])),
    }),
  );
  writeFileSync(
    join(configDir, "settings.json"),
    JSON.stringify({ permissions: { defaultMode: "acceptEdits" } }),
  );
  const env = {
    ...sandbox.env,
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: API_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  };
  const tokens = new Map<string, string>();
  /**
   * The titles the `--resume` picker shows, every project's (Ctrl+A), top to bottom. It shows a
   * few rows at a time: the selection is moved down row by row until it moves no further.
   */
  const picker = async () => {
    const screen = await startInTmux({
      cwd: projects[0]!,
      command: [bin, "--resume"],
      env,
      readyText: /Resume session|No conversations found/,
      readyTimeoutMs: 60_000,
    });
    try {
      if (screen.screen().includes("No conversations found")) return [];
      screen.keys("C-a");
      await screen.waitForScreen("to only show current repo");
      const titles = new Map<string, string>();
      const selected = new Set<string>();
      for (;;) {
        const rows = pickerRows(await screen.settled());
        for (const row of rows) titles.set(row.key, row.title);
        const now = rows.find((row) => row.selected)?.key;
        // At the last row Down moves nothing (or wraps to the first): every row has been seen.
        if (now === undefined || selected.has(now)) break;
        selected.add(now);
        screen.keys("Down");
      }
      return [...titles.values()];
    } finally {
      await screen.stop();
    }
  };
  const print = (cwd: string, prompt: string, ...args: string[]) =>
    runCommand(bin, ["-p", prompt, ...args], { cwd, env });
  const interactive = (cwd: string, ...args: string[]) =>
    startInTmux({ cwd, command: [bin, ...args], env, readyText: READY, readyTimeoutMs: 60_000, rows: 60 });
  return {
    kind: "claude",
    print,
    interactive,
    register: (token, id) => void tokens.set(token, id),
    picker,
    async list() {
      const rows = await picker();
      return rows
        .map((row) => {
          const token = /^\[(\w+)\]/.exec(row)?.[1];
          const id = token === undefined ? undefined : tokens.get(token);
          return id === undefined ? `unknown: ${row}` : `claude:${id}`;
        })
        .sort();
    },
    resume: (session: SessionRecord, prompt: string) =>
      print(session.namespace, prompt, "--resume", session.id.replace(/^claude:/, "")),
    namesOf: (session) => [session.id.replace(/^claude:/, "")],
  };
}

/**
 * A row's second line: "<age> · <branch> · <size> · <folder>". Its age is any words: "3 minutes
 * ago", but "now" for a session written this second — the one just resumed, or still running.
 */
const ROW_FACTS = /^\s*[^·❯]+? · (.* · \/.*)$/;

/**
 * The picker's rows on a screen: a title's line is the one above its facts line; a row is known
 * by its title and its facts but the age (which changes as it is read).
 */
function pickerRows(screen: string): Array<{ key: string; title: string; selected: boolean }> {
  const lines = screen.split("\n");
  return lines.flatMap((line, i) => {
    const facts = ROW_FACTS.exec(lines[i + 1] ?? "")?.[1]?.trim();
    if (facts === undefined) return [];
    const title = line.replace(/^\s*(?:❯\s*)?/, "").trimEnd();
    return [{ key: `${title}\n${facts}`, title, selected: /^\s*❯/.test(line) }];
  });
}
