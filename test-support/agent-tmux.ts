// An agent's real CLI, interactive, in a terminal of its own (a tmux server on a private socket): what
// a person runs, left running while a test looks at it. The command gets exactly the environment
// the test gives (a sandboxed HOME and agent dirs). Every wait is on a signal — the screen, /proc —
// never a fixed sleep, and the agent (its whole process group) and tmux are stopped by their pids.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processStart } from "../server/fs/process-start.js";

/**
 * Polls `check` (which may be async) every 25 ms until it gives a value; throws `describe()` after
 * `timeoutMs`.
 */
export async function until<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  describe: () => string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Whether the process that had `ticks` as its start is still running (a reused pid is another process). */
const stillRunning = (pid: number, ticks: string) => processStart(pid)?.ticks === ticks;

/** Sends `signal` to a process (or, with a negative pid, a process group) that may be gone already. */
function signal(pid: number, name: NodeJS.Signals) {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

/**
 * Stops a process by its pid: SIGTERM, then SIGKILL if it is still there after `graceMs`; with
 * `group`, the same to its whole process group (the children it started too). Resolves once it is
 * gone; a pid reused by another process since `ticks` is left alone.
 */
export async function stopProcess(
  who: { pid: number; ticks: string },
  options: { group?: boolean; graceMs?: number } = {},
): Promise<void> {
  for (const name of ["SIGTERM", "SIGKILL"] as const) {
    if (!stillRunning(who.pid, who.ticks)) return;
    signal(options.group ? -who.pid : who.pid, name);
    await until(
      () => !stillRunning(who.pid, who.ticks),
      () => `process ${who.pid} did not stop on ${name}`,
      options.graceMs ?? 5000,
    ).catch(() => undefined);
  }
}

export interface AgentInTmux {
  /** The agent's own process (the pane runs it with `exec`); it leads its process group. */
  pid: number;
  /** The terminal's text now. */
  screen(): string;
  /**
   * Types `text` as a person would, waits until the screen shows its end and then stays still for
   * a moment (an agent takes an Enter that follows keys too closely as part of a paste: Codex, or
   * as a newline: Gemini CLI, under 30 ms), then presses Enter.
   */
  type(text: string): Promise<void>;
  /** The screen once it has not changed for `quietMs` (default 500 ms). */
  settled(quietMs?: number): Promise<string>;
  /** Presses tmux-named keys (`Enter`, `Escape`, `C-c`, `Down`…). */
  keys(...keys: string[]): void;
  /** Resolves once the screen shows `text`; fails with the screen as it is. */
  waitForScreen(text: string | RegExp, timeoutMs?: number): Promise<void>;
  /**
   * Stops the agent's process group (SIGTERM, then SIGKILL), then the tmux server, each by its pid,
   * waits for both, and removes the socket's folder.
   */
  stop(): Promise<void>;
}

/**
 * Starts `command` in `cwd` in a fresh tmux terminal (120×40 unless told), with `env` as its whole environment,
 * and resolves once the screen shows `readyText` (and, with `processName`, /proc shows the agent
 * under that title: pi renames itself).
 */
export async function startInTmux(options: {
  cwd: string;
  command: readonly string[];
  env: NodeJS.ProcessEnv;
  /** What the screen shows once the agent is ready for input. */
  readyText: string | RegExp;
  processName?: string;
  /** How long the agent may take to be ready (default 20 s). */
  readyTimeoutMs?: number;
  /** The terminal's height (default 40 rows; it is 120 columns wide). */
  rows?: number;
}): Promise<AgentInTmux> {
  const folder = mkdtempSync(join(tmpdir(), "sr-tmux-"));
  const socket = join(folder, "socket");
  const stderrLog = join(folder, "stderr.log");
  const env = { ...options.env, TERM: "xterm-256color" };
  const tmux = (...args: string[]) =>
    execFileSync("tmux", ["-S", socket, "-f", "/dev/null", ...args], { env, encoding: "utf8" });
  const quoted = options.command.map((a) => `'${a.replaceAll("'", `'\\''`)}'`);
  // The agent's stderr besides the screen, for a failure's message.
  tmux(
    "new-session",
    "-d",
    "-x",
    "120",
    "-y",
    String(options.rows ?? 40),
    "-c",
    options.cwd,
    `exec ${quoted.join(" ")} 2>>'${stderrLog}'`,
  );
  const [panePid, serverPid] = tmux("display-message", "-p", "#{pane_pid} #{pid}")
    .trim()
    .split(" ")
    .map(Number);
  const pid = panePid!;
  const server = { pid: serverPid!, ticks: processStart(serverPid!)?.ticks ?? "" };
  const agent = { pid, ticks: processStart(pid)?.ticks ?? "" };
  const screen = () => {
    try {
      return tmux("capture-pane", "-p", "-J", "-S", "-200");
    } catch {
      return "(no screen: tmux has stopped)";
    }
  };
  const stderrOf = () => {
    try {
      return readFileSync(stderrLog, "utf8");
    } catch {
      return "";
    }
  };
  const shows = (text: string | RegExp) => {
    const now = screen();
    return typeof text === "string" ? now.includes(text) : text.test(now);
  };
  const waitForScreen = async (text: string | RegExp, timeoutMs = 20_000) => {
    await until(
      () => shows(text),
      () => `the screen never showed ${String(text)}:\n${screen()}\n${stderrOf()}`,
      timeoutMs,
    );
  };
  const settled = async (quietMs = 500) => {
    let last = "";
    let since = Date.now();
    return until(
      () => {
        const now = screen();
        if (now !== last) [last, since] = [now, Date.now()];
        return Date.now() - since >= quietMs ? now : undefined;
      },
      () => `the screen never settled:\n${last}`,
    );
  };
  const stop = async () => {
    await stopProcess(agent, { group: true });
    await stopProcess(server);
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    if (options.processName)
      await until(
        () => {
          try {
            return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === options.processName;
          } catch {
            return false; // not started yet, or gone: the timeout says which, with the screen
          }
        },
        () => `process ${pid} never took the title ${options.processName}:\n${screen()}\n${stderrOf()}`,
      );
    await waitForScreen(options.readyText, options.readyTimeoutMs);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    pid,
    screen,
    async type(text) {
      tmux("send-keys", "-t", "0", "-l", text);
      await waitForScreen(text.slice(-24));
      await settled(150);
      tmux("send-keys", "-t", "0", "Enter");
    },
    settled,
    keys: (...keys) => void tmux("send-keys", "-t", "0", ...keys),
    waitForScreen,
    stop,
  };
}
