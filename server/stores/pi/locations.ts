// Where pi keeps its sessions: the agent dir, the default store, and pi's custom session dirs.
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import { CONFIG_MAX_BYTES, readSmallTextFile, UnreadableFileError } from "../../fs/read-small-file.js";

/** pi's per-cwd folder: `--<cwd with / replaced>--`. */
export const PI_CWD_FOLDER = /^--.*--$/s;

/** Expands a leading `~` the way pi does (`~` and `~/…` only). */
export function expandTilde(path: string, home = homedir()): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return path;
}

/** `$PI_CODING_AGENT_DIR` (tilde expanded), else `~/.pi/agent` — as pi's own `getAgentDir()`. */
export function resolveAgentDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.PI_CODING_AGENT_DIR;
  if (fromEnv) return expandTilde(fromEnv, env.HOME || homedir());
  return join(env.HOME || homedir(), ".pi", "agent");
}

/** A store root and why we look there. */
export interface PiRoot {
  path: string;
  origin: "flag" | "default" | "env" | "settings";
}

export interface PiRootDiscovery {
  roots: PiRoot[];
  /** Settings we could not use: reported, never replaced by a guess. */
  notes: string[];
}

/**
 * The stores pi writes to: `<agentDir>/sessions` (per-cwd folders) plus the flat custom dir named by
 * `PI_CODING_AGENT_SESSION_DIR` or `sessionDir` in `<agentDir>/settings.json`. Old sessions stay in
 * the default store after a custom dir is set, so both are scanned.
 */
export function discoverPiRoots(env: NodeJS.ProcessEnv = process.env): PiRootDiscovery {
  const agentDir = resolveAgentDir(env);
  const home = env.HOME || homedir();
  const roots: PiRoot[] = [{ path: join(agentDir, "sessions"), origin: "default" }];
  const notes: string[] = [];
  const add = (raw: string, origin: PiRoot["origin"]) => {
    const path = expandTilde(raw, home);
    if (!isAbsolute(path)) {
      notes.push(`ignored ${origin} session dir "${raw}": not an absolute path`);
      return;
    }
    if (!roots.some((r) => r.path === path)) roots.push({ path, origin });
  };
  if (env.PI_CODING_AGENT_SESSION_DIR) add(env.PI_CODING_AGENT_SESSION_DIR, "env");
  const settingsPath = join(agentDir, "settings.json");
  try {
    const text = readSmallTextFile(settingsPath, { maxBytes: CONFIG_MAX_BYTES, what: "pi's settings file" });
    const settings: unknown = JSON.parse(text);
    const sessionDir = (settings as { sessionDir?: unknown } | null)?.sessionDir;
    if (typeof sessionDir === "string" && sessionDir) add(sessionDir, "settings");
  } catch (error) {
    if (error instanceof UnreadableFileError) {
      if (error.code !== "ENOENT") notes.push(error.message);
    } else notes.push(`could not read ${settingsPath}: ${(error as Error).message}`);
  }
  return { roots, notes };
}

/** The folder of pi's default store that a cwd's sessions go to, as pi's `getDefaultSessionDir` names it. */
export function folderNameOf(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

/**
 * pi names a cwd's folder `--<cwd without leading slash, / \ : → ->--`. The mapping is lossy
 * (`/a/b-c` and `/a-b/c` collide), so this is only a guess for sessions without a usable header.
 */
export function namespaceFromFolderName(folder: string): string | undefined {
  const match = /^--(.*)--$/.exec(folder);
  if (!match) return undefined;
  return `/${match[1]!.replaceAll("-", "/")}`;
}

const FILE_NAME = /^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)_(.+)\.jsonl$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether a file name is pi's own `<time>_<uuid>.jsonl` (what pi names every session it writes). */
export function isPiSessionFileName(name: string): boolean {
  const match = FILE_NAME.exec(name);
  return match !== null && UUID.test(match[2]!);
}

/** `2025-01-02T03-04-05-678Z_<uuid>.jsonl` → its time and id, if the name has pi's shape. */
export function parseSessionFileName(name: string): { createdAt?: string; id?: string } {
  const match = FILE_NAME.exec(name);
  if (!match) return {};
  const [date, time] = match[1]!.split("T") as [string, string];
  const [h, m, s, ms] = time.slice(0, -1).split("-");
  const iso = `${date}T${h}:${m}:${s}.${ms}Z`;
  return { ...(Number.isNaN(Date.parse(iso)) ? {} : { createdAt: iso }), id: match[2]! };
}
