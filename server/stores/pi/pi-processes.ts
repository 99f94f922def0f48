// The pi processes running now, from Linux's /proc. pi opens, appends to and closes its session file
// for every entry, so no open file shows a running pi; only our extension's marker names its session.
// Without the extension, a pi is found by its command line: pi's CLI sets its process title to `pi`
// as it starts (which replaces the whole command line), and before that — or as the compiled
// binary — its program or script is pi's (`…/bin/pi`, `…/pi-coding-agent/dist/cli.js`, npx's copy).
// Its working folder is the project whose sessions it writes; its environment (HOME,
// PI_CODING_AGENT_DIR, PI_CODING_AGENT_SESSION_DIR — the title leaves it alone) names the stores it
// writes them to. Kept free of zod: `scan` loads it.
import { readFileSync, readlinkSync, realpathSync } from "node:fs";
import { basename } from "node:path";
import { processStart, runningPids } from "../../fs/process-start.js";
import type { AgentProcess } from "../adapter-types.js";
import { discoverPiRoots } from "./locations.js";

/**
 * A pi process, as /proc shows it: its `cwd` is what pi writes in the header of every session it
 * starts; its `stores` are its agent dir's `sessions` and a custom session dir its environment names
 * — not a `--session-dir` given on its command line, which its title hid.
 */
export type RunningPi = AgentProcess;

/** pi's script: its `pi` command (npm's link, npx's copy, the compiled binary) or its package's CLI. */
const PI_SCRIPT = /\/pi-coding-agent\/dist\/(?:bun\/)?cli\.js$/;
/** The programs that run a script: a `node …` command line names pi as its script. */
const RUNTIME = /^(?:node|nodejs|node\d+|bun)$/;
/** Options of `node` whose value is the next argument (so it is not the script). */
const NODE_OPTIONS_WITH_VALUE = new Set([
  "-r",
  "--require",
  "--import",
  "--loader",
  "--experimental-loader",
  "-C",
  "--conditions",
  "--env-file",
]);

const isPiScript = (arg: string) => basename(arg) === "pi" || PI_SCRIPT.test(arg);

/**
 * Whether a command line (`/proc/<pid>/cmdline`, split at NULs) runs pi's CLI: its program is pi
 * (the title pi sets, or the binary), or its program is a JavaScript runtime whose script is pi's.
 * Anything else that merely mentions pi — `vim pi`, `node pi-notes.js`, a shell running `pi` — is not.
 */
export function isPiCommand(argv: readonly string[]): boolean {
  const [program, ...args] = argv;
  if (program === undefined) return false;
  if (isPiScript(program)) return true;
  if (!RUNTIME.test(basename(program))) return false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") return args[i + 1] !== undefined && isPiScript(args[i + 1]!);
    if (NODE_OPTIONS_WITH_VALUE.has(arg)) i++;
    else if (!arg.startsWith("-")) return isPiScript(arg);
  }
  return false;
}

/** /proc's start time of a pid, as clock ticks since boot (the same ticks as long as it is the same process). */
const ticksOf = (pid: number) => processStart(pid)?.ticks;

/** The environment a process was started with (`/proc/<pid>/environ`: NUL-separated `KEY=value`). */
function environOf(pid: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const entry of readFileSync(`/proc/${pid}/environ`, "utf8").split("\0")) {
    const equals = entry.indexOf("=");
    if (equals > 0) env[entry.slice(0, equals)] = entry.slice(equals + 1);
  }
  return env;
}

const realOrAsIs = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/** The stores a pi started with `env` writes to, as pi itself finds them. */
function storesOf(env: NodeJS.ProcessEnv): string[] {
  // Without HOME, pi would fall back to the account's home, which we cannot know for another process.
  if (!env.HOME && !env.PI_CODING_AGENT_DIR) return [];
  return discoverPiRoots(env).roots.map((root) => realOrAsIs(root.path));
}

const isPiProcess = (pid: number) =>
  isPiCommand(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean));

/**
 * The pi processes running now that we may look at (on Linux; none elsewhere, nor another user's),
 * other than `self` (default: this process — the extension runs inside pi, and its own pi is marked).
 * Every command line is read once (the cheap test); a pi's start time is read before its command
 * line is read again, its folder and environment, and after: a process that exited meanwhile and
 * whose pid was taken by another is passed over, not mixed with it.
 */
export function runningPi(self: number = process.pid): RunningPi[] {
  return runningPids().flatMap((pid): RunningPi[] => {
    if (pid === self) return [];
    try {
      if (!isPiProcess(pid)) return [];
      const before = processStart(pid);
      if (!before || !isPiProcess(pid)) return [];
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      const env = environOf(pid);
      if (ticksOf(pid) !== before.ticks) return [];
      // A folder removed under a running pi is shown with this suffix; pi's headers have the path.
      return [{ pid, cwd: cwd.replace(/ \(deleted\)$/, ""), startedMs: before.ms, stores: storesOf(env) }];
    } catch {
      return []; // gone meanwhile, or another user's
    }
  });
}
