// Starts the real CLI (`session-retention serve --port 0`) on a temporary home and store, and gives
// each test its URL. The server is reached only through the browser and HTTP.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page, type Request } from "@playwright/test";
import { writeClaudeTranscript } from "../test-support/claude-transcript.js";
import { setModified, writeSession } from "../test-support/pi-store.js";
import { startServe } from "../test-support/serve-child.js";

export interface RunningServer {
  url: string;
  home: string;
  agentDir: string;
  output: () => string;
}

/** A config under which the policy's own rules keep nothing: a pin or protection is then the only reason. */
export const KEEP_NOTHING = { retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0 } };

/** pi's agent folder inside `home`, with `config` as session-retention's config file; and its sessions folder. */
export function agentDirWith(home: string, config: object): { agentDir: string; root: string } {
  const agentDir = join(home, ".pi", "agent");
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(join(agentDir, "session-retention.json"), JSON.stringify(config));
  return { agentDir, root: join(agentDir, "sessions") };
}

const DAY = 86_400_000;
/** The Claude Code session of `agentsHome` that Claude's own 30-day cleanup would delete. */
const SWEPT_ID = "claude:6f1c2a4e-0000-4000-8000-000000000001";

/**
 * A home where both agents have a store: pi's (three small sessions in /work/a and /work/b, under
 * a config that keeps nothing by itself) and Claude Code's `~/.claude` (two larger transcripts in
 * /work/app — one with a title — the untitled one 60 days old by file time, so Claude's default
 * 30-day cleanup would delete it). The server finds both on its own, as on a real machine.
 */
export function agentsHome(home: string) {
  const { root } = agentDirWith(home, KEEP_NOTHING);
  const pi = ["/work/a", "/work/a", "/work/b"].map((cwd, i) => {
    const path = writeSession(root, cwd, 1 + i).getSessionFile()!;
    setModified(path, new Date(Date.now() - (10 + i) * DAY));
    return path;
  });
  const claudeRoot = join(home, ".claude");
  const swept = writeClaudeTranscript(claudeRoot, {
    id: SWEPT_ID.slice("claude:".length),
    cwd: "/work/app",
    turns: 30,
    modified: new Date(Date.now() - 60 * DAY),
  });
  const recent = writeClaudeTranscript(claudeRoot, {
    id: "6f1c2a4e-0000-4000-8000-000000000002",
    cwd: "/work/app",
    turns: 20,
    modified: new Date(Date.now() - DAY),
    title: "Fix the flaky checkout test",
  });
  return { pi, swept, recent };
}

/** Spawns the server with HOME, PI_CODING_AGENT_DIR and XDG_DATA_HOME inside `home` (Claude's and Gemini's folders too). */
async function startServer(
  home: string,
  extraArgs: string[] = [],
): Promise<RunningServer & { stop: () => Promise<void> }> {
  const agentDir = join(home, ".pi", "agent");
  const server = await startServe(["--no-open", ...extraArgs], {
    ...process.env,
    HOME: home,
    PI_CODING_AGENT_DIR: agentDir,
    XDG_DATA_HOME: join(home, ".local", "share"),
    PI_CODING_AGENT_SESSION_DIR: "",
    // Claude Code's store is `~/.claude` in the temporary home, never the machine's own; Codex's `~/.codex`.
    CLAUDE_CONFIG_DIR: "",
    // …and its temp folder (a session's temp files) the home's too.
    CLAUDE_CODE_TMPDIR: join(home, "tmp"),
    CODEX_HOME: "",
    CODEX_SQLITE_HOME: "",
    // Gemini CLI's too (`~/.gemini`), and its machine-wide settings and trust are the home's.
    GEMINI_CLI_HOME: "",
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(home, "etc", "gemini-cli", "settings.json"),
    GEMINI_CLI_SYSTEM_DEFAULTS_PATH: "",
    GEMINI_CLI_TRUSTED_FOLDERS_PATH: "",
    GEMINI_CLI_TRUST_WORKSPACE: "",
  });
  return { url: server.url, home, agentDir, output: server.output, stop: () => server.stop() };
}

/** Per page: its requests under way, and when one last started or ended (the live stream's aside). */
const traffic = new WeakMap<Page, { open: Set<Request>; lastAt: number }>();

/** Follows the page's requests, except the live event stream, which is open as long as the page. */
function trackTraffic(page: Page) {
  const seen = { open: new Set<Request>(), lastAt: Date.now() };
  traffic.set(page, seen);
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/events") return;
    seen.open.add(request);
    seen.lastAt = Date.now();
  });
  const ended = (request: Request) => {
    if (seen.open.delete(request)) seen.lastAt = Date.now();
  };
  page.on("requestfinished", ended);
  page.on("requestfailed", ended);
}

/**
 * Waits until no request has been under way for 500 ms, the live event stream aside: Playwright's
 * "networkidle", which a page that keeps its stream open never reaches.
 */
export async function networkQuiet(page: Page, quietMs = 500) {
  const seen = traffic.get(page)!;
  await expect
    .poll(() => seen.open.size === 0 && Date.now() - seen.lastAt >= quietMs, { intervals: [100] })
    .toBe(true);
}

export const test = base.extend<{
  /** A fresh temporary home per test, removed afterwards. */
  home: string;
  /** Starts a server on the test's home; every server started is stopped when the test ends. */
  serve: (extraArgs?: string[]) => Promise<RunningServer & { stop: () => Promise<void> }>;
}>({
  page: async ({ page }, use) => {
    trackTraffic(page);
    await use(page);
  },
  // Playwright fixtures take their dependencies as a destructured object, even when there are none.
  // eslint-disable-next-line no-empty-pattern
  home: async ({}, use) => {
    const home = mkdtempSync(join(tmpdir(), "sr-e2e-"));
    await use(home);
    rmSync(home, { recursive: true, force: true });
  },
  serve: async ({ home }, use) => {
    const started: Array<{ stop: () => Promise<void> }> = [];
    await use(async (extraArgs = []) => {
      const server = await startServer(home, extraArgs);
      started.push(server);
      return server;
    });
    for (const server of started) await server.stop(); // a stopped one returns at once
  },
});

export { expect } from "@playwright/test";

/** How much longer a test may run for each axe analysis it makes. */
const AXE_ALLOWANCE_MS = 60_000;

/**
 * axe's analysis of the page as it is. It is work for the CPU with nothing to wait for — the first
 * one in a cold Chromium on a loaded two-core machine took 10 s and more — so each run widens the
 * running test's limit by its own allowance instead of spending the test's.
 */
export async function axe(page: Page): ReturnType<AxeBuilder["analyze"]> {
  const { timeout } = test.info();
  if (timeout > 0) test.setTimeout(timeout + AXE_ALLOWANCE_MS);
  return new AxeBuilder({ page }).analyze();
}

/** axe's violations of any impact on the page as it is, one line each (none: `[]`). */
export async function violations(page: Page) {
  const { violations: found } = await axe(page);
  return found.map((v) => `${v.impact}: ${v.id} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}
