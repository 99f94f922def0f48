// pi's real CLI, interactive, in a terminal of its own (a tmux server on a private socket), talking
// to a mock model on 127.0.0.1: what a person runs, left running while a test looks at it. The test's
// sandboxed HOME and agent dir are pi's; nothing is downloaded (`--offline`). Every wait is on a
// signal — the screen, /proc — never a fixed sleep, and pi and tmux are stopped by their pids.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { processStart } from "../server/fs/process-start.js";

/** pi's CLI script in this checkout's node_modules. */
export const PI_CLI = fileURLToPath(
  new URL("../node_modules/@mariozechner/pi-coding-agent/dist/cli.js", import.meta.url),
);

export const MOCK_PROVIDER = "mock";
export const MOCK_MODEL = "mock-1";

/**
 * Points pi at a mock model: `<agentDir>/models.json` gains a provider speaking OpenAI Chat
 * Completions at `modelUrl` (pi's custom-provider format, docs/models.md in pi's package). Returns
 * the arguments that choose it.
 */
export function useMockModel(agentDir: string, modelUrl: string): string[] {
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(
    join(agentDir, "models.json"),
    `${JSON.stringify(
      {
        providers: {
          [MOCK_PROVIDER]: {
            baseUrl: `${modelUrl}/v1`,
            api: "openai-completions",
            apiKey: "mock",
            models: [{ id: MOCK_MODEL }],
          },
        },
      },
      null,
      2,
    )}\n`,
  );
  return ["--offline", "--provider", MOCK_PROVIDER, "--model", MOCK_MODEL];
}

/** Polls `check` every 25 ms until it gives a value; throws `describe()` after `timeoutMs`. */
export async function until<T>(
  check: () => T | undefined | false,
  describe: () => string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Whether the process that had `ticks` as its start is still running (a reused pid is another process). */
const stillRunning = (pid: number, ticks: string) => processStart(pid)?.ticks === ticks;

export interface PiInTmux {
  /** pi's own process (the pane runs it with `exec`). */
  pid: number;
  /** The terminal's text now. */
  screen(): string;
  /** Types `text` as a person would and presses Enter. */
  type(text: string): void;
  /** Resolves once the screen shows `text`; fails with the screen as it is. */
  waitForScreen(text: string, timeoutMs?: number): Promise<void>;
  /**
   * Stops pi (SIGTERM, then SIGKILL), then the tmux server, each by its pid, waits for both, and
   * removes the socket's folder.
   */
  stop(): Promise<void>;
}

/**
 * Starts pi's CLI in `cwd` in a fresh 120×40 tmux terminal, with `env` as its whole environment (the
 * sandbox's HOME and PI_CODING_AGENT_DIR among it), and resolves once pi shows its editor — the
 * footer naming `model` — and /proc shows it under its own title.
 */
export async function startPiInTmux(options: {
  cwd: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  /** What the footer shows once pi is ready for input. */
  readyText: string;
}): Promise<PiInTmux> {
  const socket = join(mkdtempSync(join(tmpdir(), "sr-tmux-")), "socket");
  const env = { ...options.env, TERM: "xterm-256color" };
  const tmux = (...args: string[]) =>
    execFileSync("tmux", ["-S", socket, "-f", "/dev/null", ...args], { env, encoding: "utf8" });
  const quoted = [process.execPath, PI_CLI, ...options.args].map((a) => `'${a.replaceAll("'", `'\\''`)}'`);
  tmux(
    "new-session",
    "-d",
    "-x",
    "120",
    "-y",
    "40",
    "-c",
    options.cwd,
    // pi's stderr besides the screen, for a failure's message.
    `exec ${quoted.join(" ")} 2>>'${join(dirname(socket), "pi-stderr.log")}'`,
  );
  const [panePid, serverPid] = tmux("display-message", "-p", "#{pane_pid} #{pid}")
    .trim()
    .split(" ")
    .map(Number);
  const pid = panePid!;
  const server = { pid: serverPid!, ticks: processStart(serverPid!)?.ticks ?? "" };
  const piTicks = processStart(pid)?.ticks ?? "";
  const screen = () => {
    try {
      return tmux("capture-pane", "-p", "-J", "-S", "-200");
    } catch {
      return "(no screen: tmux has stopped)";
    }
  };
  const stderrOf = () => {
    try {
      return readFileSync(join(dirname(socket), "pi-stderr.log"), "utf8");
    } catch {
      return "";
    }
  };
  const waitForScreen = async (text: string, timeoutMs = 20_000) => {
    await until(
      () => screen().includes(text),
      () => `pi's screen never showed ${JSON.stringify(text)}:\n${screen()}\n${stderrOf()}`,
      timeoutMs,
    );
  };
  const stop = async () => {
    for (const [who, signal] of [
      [{ pid, ticks: piTicks }, "SIGTERM"],
      [{ pid, ticks: piTicks }, "SIGKILL"],
      [server, "SIGTERM"],
      [server, "SIGKILL"],
    ] as const) {
      if (!stillRunning(who.pid, who.ticks)) continue;
      process.kill(who.pid, signal);
      await until(
        () => !stillRunning(who.pid, who.ticks),
        () => `process ${who.pid} did not stop on ${signal}`,
        5000,
      ).catch(() => undefined);
    }
    rmSync(dirname(socket), { recursive: true, force: true });
  };
  try {
    await until(
      () => {
        try {
          return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "pi";
        } catch {
          return false; // not started yet, or gone: the timeout says which, with pi's screen
        }
      },
      () => `pi (process ${pid}) never took its title:\n${screen()}\n${stderrOf()}`,
    );
    await waitForScreen(options.readyText);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    pid,
    screen,
    type(text) {
      tmux("send-keys", "-t", "0", "-l", text);
      tmux("send-keys", "-t", "0", "Enter");
    },
    waitForScreen,
    stop,
  };
}
