// Codex as the real-agent suite drives it: the pinned CLI (test-agents; a native binary) pointed at
// the mock model through a `model_providers` entry in `$CODEX_HOME/config.toml` (`wire_api =
// "responses"`, the key from an environment variable), the projects trusted; `codex exec` (print
// mode, `resume`, `fork`), the TUI in tmux, and its own list — `codex app-server`'s `thread/list`
// with every source kind, over its stdio JSON-RPC. The TUI runs its threads in an app-server daemon
// that outlives it: `stopDaemon` stops it by the pids its pid files name, never by name.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { SessionRecord } from "../../shared/session-record.js";
import { type AgentInTmux, startInTmux, stopProcess } from "../agent-tmux.js";
import { agentBin } from "../test-agents.js";
import type { AgentUnderTest } from "./checks.js";
import { runCommand, type Run, type Sandbox } from "./sandbox.js";

/** Every kind of thread source `thread/list` can filter on (codex app-server's ThreadSourceKind). */
const SOURCE_KINDS = [
  "cli",
  "vscode",
  "exec",
  "appServer",
  "subAgent",
  "subAgentReview",
  "subAgentCompact",
  "subAgentThreadSpawn",
  "subAgentOther",
  "unknown",
];

/** A thread as `thread/list` describes it (the fields the suite reads). */
export interface CodexThread {
  id: string;
  parentThreadId?: string | null;
  forkedFromId?: string | null;
}

export interface CodexDriver extends AgentUnderTest {
  /** `codex exec --json … <prompt>` (or `exec resume|fork <id> <prompt>` with `sub`) in `cwd`; the thread's id. */
  exec(cwd: string, prompt: string, sub?: ["resume" | "fork", string]): Promise<Run & { thread: string }>;
  /** The TUI in tmux in `cwd`, ready for input. */
  interactive(cwd: string): Promise<AgentInTmux>;
  /** Every thread `thread/list` gives, of every source kind (subagents' threads too). */
  threads(): Promise<CodexThread[]>;
  /** Stops the app-server daemon the TUI started, if it runs (by the pids in its pid files). */
  stopDaemon(): Promise<void>;
}

const toml = (text: string) => JSON.stringify(text);

export function codexDriver(sandbox: Sandbox, modelUrl: string, projects: readonly string[]): CodexDriver {
  const bin = agentBin("codex");
  const home = sandbox.env.CODEX_HOME!;
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, "config.toml"),
    [
      `model = "mock-1"`,
      `model_provider = "mock"`,
      `[model_providers.mock]`,
      `name = "mock"`,
      `base_url = ${toml(`${modelUrl}/v1`)}`,
      `wire_api = "responses"`,
      `env_key = "MOCK_API_KEY"`,
      ...projects.flatMap((p) => [`[projects.${toml(p)}]`, `trust_level = "trusted"`]),
      "",
    ].join("\n"),
  );
  const env = { ...sandbox.env, MOCK_API_KEY: "mock" };
  const flags = ["--json", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox"];

  async function exec(cwd: string, prompt: string, sub?: ["resume" | "fork", string]) {
    const args = sub ? ["exec", sub[0], ...flags, sub[1], prompt] : ["exec", ...flags, prompt];
    const run = await runCommand(bin, args, { cwd, env });
    const started = run.stdout
      .split("\n")
      .map((line) => /^\{.*"type":"thread\.started".*\}$/.exec(line)?.[0])
      .find(Boolean);
    return { ...run, thread: started ? (JSON.parse(started) as { thread_id: string }).thread_id : "" };
  }

  /** `codex app-server` on stdio: initialize, then `thread/list` page by page. */
  async function threads(): Promise<CodexThread[]> {
    const server = spawn(bin, ["app-server"], { cwd: sandbox.home, env, stdio: ["pipe", "pipe", "ignore"] });
    const lines = createInterface({ input: server.stdout })[Symbol.asyncIterator]();
    let next = 0;
    const call = async (method: string, params: unknown) => {
      const id = ++next;
      server.stdin.write(`${JSON.stringify({ id, method, params })}\n`);
      for (;;) {
        const line = await lines.next();
        if (line.done) throw new Error(`codex app-server closed before answering ${method}`);
        const message = JSON.parse(line.value) as { id?: number; result?: unknown; error?: unknown };
        if (message.id !== id) continue; // a notification
        if (message.error) throw new Error(`${method}: ${JSON.stringify(message.error)}`);
        return message.result;
      }
    };
    try {
      await call("initialize", { clientInfo: { name: "session-retention-tests", version: "0" } });
      server.stdin.write(`${JSON.stringify({ method: "initialized" })}\n`);
      const all: CodexThread[] = [];
      let cursor: string | null = null;
      do {
        const page = (await call("thread/list", { sourceKinds: SOURCE_KINDS, limit: 100, cursor })) as {
          data: CodexThread[];
          nextCursor: string | null;
        };
        all.push(...page.data);
        cursor = page.nextCursor;
      } while (cursor);
      return all;
    } finally {
      server.kill("SIGTERM");
    }
  }

  return {
    kind: "codex",
    exec,
    interactive: (cwd) =>
      startInTmux({ cwd, command: [bin], env, readyText: "for shortcuts", readyTimeoutMs: 60_000 }),
    threads,
    async list() {
      // A subagent's thread is a part of its parent's session in our model (it moves with it).
      return (await threads())
        .filter((t) => !t.parentThreadId)
        .map((t) => `codex:${t.id}`)
        .sort();
    },
    async stopDaemon() {
      for (const name of ["daemon.pid", "daemon-updater.pid"]) {
        const file = join(home, "app-server-daemon", name);
        if (!existsSync(file)) continue;
        const { pid, processIdentity } = JSON.parse(readFileSync(file, "utf8")) as {
          pid: number;
          processIdentity: { startTicks: number };
        };
        await stopProcess({ pid, ticks: String(processIdentity.startTicks) });
      }
    },
    resume: (session: SessionRecord, prompt: string) =>
      exec(session.namespace, prompt, ["resume", session.id.replace(/^codex:/, "")]),
    namesOf: (session) => [session.id.replace(/^codex:/, "")],
  };
}
