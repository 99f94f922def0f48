// Where OpenAI Codex keeps its data: `$CODEX_HOME`, else `~/.codex`; its SQLite databases in
// `$CODEX_SQLITE_HOME` (or `sqlite_home` in its config.toml) when set, else beside the rest. Apart
// from the adapter, so the store resolution and the gate need not load it.
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import { CONFIG_MAX_BYTES, readSmallTextFile } from "../../fs/read-small-file.js";

/** Codex's home, the root of its store: `$CODEX_HOME`, else `~/.codex`. */
export const codexDefaultRoot = (env: NodeJS.ProcessEnv) =>
  env.CODEX_HOME || join(env.HOME || homedir(), ".codex");

/** Live rollouts: `sessions/YYYY/MM/DD/`. */
export const SESSIONS = "sessions";
/** Archived rollouts, flat. */
export const ARCHIVED = "archived_sessions";
/** Codex's thread names: append-only `{id, thread_name, updated_at}` lines, the last one wins. */
export const SESSION_INDEX = "session_index.jsonl";

/** A top-level `sqlite_home = "…"` in Codex's config.toml (the one key we need from it). */
const SQLITE_HOME_KEY = /^\s*sqlite_home\s*=\s*"((?:[^"\\]|\\.)*)"\s*(?:#.*)?$/m;

/**
 * The folder of Codex's SQLite databases: `$CODEX_SQLITE_HOME`, else `sqlite_home` in
 * `<root>/config.toml`, else the root itself.
 */
export function codexSqliteHome(root: string, env: NodeJS.ProcessEnv): string {
  if (env.CODEX_SQLITE_HOME) return env.CODEX_SQLITE_HOME;
  let toml = "";
  try {
    // Bounded, and a FIFO or a device there is an error, not a wait.
    toml = readSmallTextFile(join(root, "config.toml"), { maxBytes: CONFIG_MAX_BYTES, what: "Codex config" });
  } catch {
    return root;
  }
  // Only what comes before the first table header is top-level.
  const top = toml.split(/^\s*\[/m)[0] ?? "";
  const value = SQLITE_HOME_KEY.exec(top)?.[1];
  if (!value) return root;
  const path = value.replace(/\\(.)/g, "$1");
  if (path.startsWith("~/")) return join(env.HOME || homedir(), path.slice(2));
  return isAbsolute(path) ? path : join(root, path);
}
