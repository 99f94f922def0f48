// The real-agent suite's sandbox: one temporary home (the test file's, test-support/isolate-home.ts)
// that the agents' CLIs and our own CLI both see as theirs — HOME, the XDG folders, TMPDIR and every
// agent's own folder variable pointed inside it — project folders in it, and the helpers that run
// a command there and our CLI in-process. The agents reach no network: their model is the mock on
// 127.0.0.1, and a proxy that answers nothing stands for the rest (anything that would call out
// fails at once instead of reaching a host).
import { spawn } from "node:child_process";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import type { CliIo } from "../../server/cli/io.js";
import { runCli } from "../../server/cli/main.js";
import { writeConfigFile } from "../config-file.js";
import { until } from "../agent-tmux.js";
import { agentBin } from "../test-agents.js";

export interface Sandbox {
  /** The sandbox's HOME (real path). */
  home: string;
  /** The environment of every agent process (and of ours: `process.env` is set to match). */
  env: NodeJS.ProcessEnv;
  /** A project folder `~/code/<name>`, made if missing (real path). */
  project(name: string): string;
}

/** A port on 127.0.0.1 where nothing listens: a proxy that refuses every connection. */
const NO_PROXY_HERE = "http://127.0.0.1:9";

/**
 * Points every agent's folders into the test file's sandboxed home, in `process.env` too (our CLI
 * runs in this process and must find the same stores), and writes our config: no count-based
 * keeps, no grace window, a count quota of 1 (so every session not kept for a reason of its own
 * is a candidate) and the quarantine as the trash.
 */
export function agentSandbox(): Sandbox {
  const home = realpathSync(process.env.HOME!);
  const folders = {
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_RUNTIME_DIR: join(home, ".run"),
    TMPDIR: join(home, "tmp"),
    CLAUDE_CONFIG_DIR: join(home, ".claude"),
    CODEX_HOME: join(home, ".codex"),
    GEMINI_CLI_HOME: home,
    PI_CODING_AGENT_DIR: join(home, ".pi", "agent"),
  };
  for (const folder of Object.values(folders)) mkdirSync(folder, { recursive: true, mode: 0o700 });
  Object.assign(process.env, folders, { SESSION_RETENTION_CODEX: agentBin("codex") });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LANG: "C.UTF-8",
    HOME: home,
    USER: process.env.USER ?? "root",
    SHELL: "/bin/bash",
    ...folders,
    HTTP_PROXY: NO_PROXY_HERE,
    HTTPS_PROXY: NO_PROXY_HERE,
    http_proxy: NO_PROXY_HERE,
    https_proxy: NO_PROXY_HERE,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
    // Gemini CLI's machine-wide settings, as the test's setup file placed them (never /etc's).
    ...Object.fromEntries(
      ["GEMINI_CLI_SYSTEM_SETTINGS_PATH", "GEMINI_CLI_SYSTEM_DEFAULTS_PATH"].flatMap((name) =>
        process.env[name] ? [[name, process.env[name]]] : [],
      ),
    ),
    // Nothing of the agents' own telemetry or update checks is wanted.
    DO_NOT_TRACK: "1",
    NO_UPDATE_NOTIFIER: "1",
  };
  writeConfigFile({
    retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
    quota: { maxSessionCount: 1 },
    activity: { graceMinutes: 0 },
    deletion: { target: "quarantine" },
  });
  return {
    home,
    env,
    project(name) {
      const folder = join(home, "code", name);
      mkdirSync(folder, { recursive: true });
      return realpathSync(folder);
    },
  };
}

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `command` in `cwd` with `env` as its whole environment, stdin closed (print modes read a
 * prompt from an open stdin), and resolves when it exits; after `timeoutMs` its process group is
 * killed and the run fails, saying what it printed.
 */
export async function runCommand(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<Run> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group, so a timeout stops its children too
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  let status: number | null | undefined;
  child.once("close", (code) => (status = code));
  try {
    await until(
      () => status !== undefined,
      () => `${command} ${args.join(" ")} did not exit:\n${stdout}\n${stderr}`,
      options.timeoutMs ?? 120_000,
    );
  } catch (error) {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {}
    throw error;
  }
  return { status: status ?? null, stdout, stderr };
}

/** Our CLI, in this process, on the sandbox's stores (they are `process.env`'s). */
export async function ourCli(...argv: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (t) => out.push(t), stderr: (t) => err.push(t) };
  const status = await runCli(argv, io);
  return { status, stdout: out.join("\n"), stderr: err.join("\n") };
}
