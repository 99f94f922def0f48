// The real agent CLIs (test-agents/package.json: Claude Code, Gemini CLI, Codex, pi, pinned), which
// the root `npm install` does not bring (Codex alone is 400 MB): installed here on first need with
// `npm ci` from their own lockfile, again only when that lockfile changes (a hash marker), under a
// lock so that parallel test workers wait for one install instead of racing.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The suite's package folder. */
export const TEST_AGENTS = fileURLToPath(new URL("../test-agents/", import.meta.url));
const LOCKFILE = join(TEST_AGENTS, "package-lock.json");
/** Written after an install: the hash of the lockfile it installed. */
const MARKER = join(TEST_AGENTS, "node_modules", ".installed-lockfile-sha256");
/** Held while an install runs (a folder: making one is atomic); names the holder's pid. */
const LOCK = join(TEST_AGENTS, ".installing");

/** Each agent's command, as npm links it. */
export const AGENT_BINS = {
  claude: join(TEST_AGENTS, "node_modules", ".bin", "claude"),
  codex: join(TEST_AGENTS, "node_modules", ".bin", "codex"),
  gemini: join(TEST_AGENTS, "node_modules", ".bin", "gemini"),
  pi: join(TEST_AGENTS, "node_modules", ".bin", "pi"),
} as const;

export type AgentName = keyof typeof AGENT_BINS;

const lockfileHash = () => createHash("sha256").update(readFileSync(LOCKFILE)).digest("hex");
const installed = (hash: string) => existsSync(MARKER) && readFileSync(MARKER, "utf8").trim() === hash;
const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Whether the process that took the lock is gone (killed mid-install): its lock is stale. */
function staleLock(): boolean {
  try {
    const pid = Number(readFileSync(join(LOCK, "pid"), "utf8"));
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // No pid file yet: the holder is between mkdir and write; stale only if that was long ago.
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > 60_000;
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** npm beside the running node (CI puts Node 24's first on PATH; a bare `npm` could be another's). */
function npmCommand(): string[] {
  const cli = join(dirname(process.execPath), "..", "lib", "node_modules", "npm", "bin", "npm-cli.js");
  return existsSync(cli) ? [process.execPath, cli] : ["npm"];
}

/**
 * Makes sure test-agents/node_modules holds what test-agents/package-lock.json pins, installing it
 * (`npm ci`, from the npm registry) when it does not. Synchronous, so that a test module can call
 * it where it names a binary; the first caller installs (a minute or two), the others wait.
 */
export function ensureTestAgents(): void {
  const hash = lockfileHash();
  if (installed(hash)) return;
  const deadline = Date.now() + 20 * 60_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (installed(hash)) return; // another worker finished while we looked
    if (staleLock()) rmSync(LOCK, { recursive: true, force: true });
    else if (Date.now() > deadline) throw new Error(`${LOCK} is held by another install for 20 minutes`);
    else sleep(500);
  }
  try {
    writeFileSync(join(LOCK, "pid"), String(process.pid));
    if (installed(hash)) return;
    const [command, ...args] = npmCommand();
    process.stderr.write(`installing the real agent CLIs (test-agents/package-lock.json) with npm ci…\n`);
    execFileSync(command!, [...args, "ci", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: TEST_AGENTS,
      stdio: ["ignore", "inherit", "inherit"],
    });
    writeFileSync(MARKER, `${hash}\n`);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** The path of an agent's command, the suite's package installed first if it is not yet. */
export function agentBin(agent: AgentName): string {
  ensureTestAgents();
  return AGENT_BINS[agent];
}
