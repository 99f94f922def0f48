// Deleting a Codex session keeps Codex consistent: its rollouts, their lines in
// `session_index.jsonl` and their rows in Codex's SQLite state must all go, or Codex lists threads
// it cannot open. We never write Codex's databases ourselves: Codex's own `codex delete --force
// <thread>` removes all three (and the subagent threads the thread spawned), after we have taken
// our copy — a hard link of every rollout into the quarantine, so the copy is the very file, and
// nothing is lost whatever Codex does. Then we look: the files, the index lines and the rows in
// every `state_*.sqlite` must be gone. Without a `codex` binary (or without `sqlite3` to look with)
// a Codex session is not deleted, and the reason says so.
import { spawnSync } from "node:child_process";
import { accessSync, constants, readdirSync } from "node:fs";
import { basename, delimiter, join } from "node:path";
import { codexSqliteHome } from "./location.js";
import { parseRolloutName } from "./rollout-name.js";
import { readSessionIndex } from "./session-index.js";

export interface CodexTools {
  /** Codex's own CLI, whose `delete` we use. */
  codex: string;
  /** Debian's (or the system's) sqlite3, to read Codex's state read-only. */
  sqlite3: string;
}

/** An executable on PATH, or undefined. */
function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const folder of (env.PATH ?? "").split(delimiter)) {
    if (!folder) continue;
    const path = join(folder, name);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Codex's own CLI: `SESSION_RETENTION_CODEX`, else `codex` on PATH. */
export const codexBinary = (env: NodeJS.ProcessEnv) => env.SESSION_RETENTION_CODEX || onPath("codex", env);

/**
 * The tools a Codex delete needs, or why it cannot be done: `SESSION_RETENTION_CODEX` names the
 * `codex` binary (else `codex` on PATH), and `sqlite3` must be on PATH.
 */
export function codexTools(env: NodeJS.ProcessEnv): CodexTools | string {
  const codex = codexBinary(env);
  if (!codex)
    return "Codex sessions are deleted through Codex's own `codex delete` (so its index and database stay consistent), and no `codex` binary was found: put it on PATH or set SESSION_RETENTION_CODEX";
  const sqlite3 = sqlite3Of(env);
  if (typeof sqlite3 !== "string") return sqlite3.missing;
  return { codex, sqlite3 };
}

/** The `sqlite3` we read Codex's databases with (read-only), or why there is none. */
export function sqlite3Of(env: NodeJS.ProcessEnv): string | { missing: string } {
  return (
    onPath("sqlite3", env) ?? {
      missing:
        "a Codex delete is verified by reading Codex's state database with `sqlite3`, which is not on PATH (install it, e.g. apt-get install sqlite3)",
    }
  );
}

/** The thread ids named by rollout paths (a rollout and its `.zst` sibling name one thread). */
export function threadsOfPaths(paths: readonly string[]): string[] {
  return [...new Set(paths.flatMap((path) => parseRolloutName(basename(path))?.thread ?? []))];
}

/** Runs `codex delete --force <thread>` for the store at `root`; the error is Codex's own words. */
export function codexDelete(
  tools: CodexTools,
  root: string,
  thread: string,
  env: NodeJS.ProcessEnv,
): { ok: true } | { ok: false; message: string } {
  const run = spawnSync(tools.codex, ["delete", "--force", thread], {
    env: { ...env, CODEX_HOME: root },
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    timeout: 120_000,
  });
  if (run.status === 0) return { ok: true };
  // Codex prints warnings first and its error as `Error: …` (then a backtrace): the error is what counts.
  const lines = `${run.stderr ?? ""}`.split("\n").map((line) => line.trim());
  const said = lines.find((line) => line.startsWith("Error:")) ?? lines.find((line) => line !== "") ?? "";
  return {
    ok: false,
    message: `codex delete --force ${thread} ${run.error ? `could not run (${run.error.message})` : `exited ${run.status}`}${said ? `: ${said.trim()}` : ""}`,
  };
}

/**
 * Codex's state databases: every `state_N.sqlite` (and a legacy `state.sqlite`) in its SQLite home,
 * then in its root, each folder's newest version first. The first is the one Codex reads.
 */
export function stateDatabases(root: string, env: NodeJS.ProcessEnv): string[] {
  const found = new Map<string, number>();
  const folders = [...new Set([codexSqliteHome(root, env), root])];
  for (const [place, folder] of folders.entries()) {
    let names: string[] = [];
    try {
      names = readdirSync(folder);
    } catch {
      continue;
    }
    for (const name of names) {
      const match = /^state(?:_(\d+))?\.sqlite$/.exec(name);
      // The SQLite home's databases first: a stray newer file in the root is not what Codex reads.
      if (match) found.set(join(folder, name), Number(match[1] ?? 0) - place * 1e9);
    }
  }
  return [...found].sort((a, b) => b[1] - a[1]).map(([path]) => path);
}

/** The thread ids among `threads` that a database's `threads` table still has (read-only). */
function rowsIn(tools: CodexTools, database: string, threads: readonly string[]): string[] | string {
  const list = threads.map((t) => `'${t.replace(/'/g, "''")}'`).join(",");
  const run = spawnSync(
    tools.sqlite3,
    [
      "-readonly",
      "-batch",
      "-noheader",
      "-cmd",
      ".timeout 5000",
      database,
      `select lower(id) from threads where lower(id) in (${list});`,
    ],
    { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8", timeout: 60_000 },
  );
  if (run.status !== 0)
    return `${database} could not be read (${(run.stderr || run.error?.message || "").trim()})`;
  return run.stdout.split("\n").filter((line) => line !== "");
}

export interface CodexTraces {
  /** What Codex would still show or trip over: files, index lines, rows in the database it reads. */
  left: string[];
  /** Rows in older `state_*.sqlite` files, which this Codex does not read: said, not failed on. */
  legacy: string[];
}

/** What is left of these threads in Codex's store: the rollout paths, the index lines, the rows. */
export function codexTraces(
  tools: CodexTools,
  root: string,
  threads: readonly string[],
  paths: readonly string[],
  env: NodeJS.ProcessEnv,
  exists: (path: string) => boolean,
): CodexTraces {
  const left: string[] = paths.filter(exists).map((path) => `${path} is still there`);
  const index = readSessionIndex(root);
  for (const thread of threads)
    if (index.has(thread)) left.push(`session_index.jsonl still names thread ${thread}`);
  const legacy: string[] = [];
  stateDatabases(root, env).forEach((database, i) => {
    const rows = rowsIn(tools, database, threads);
    if (typeof rows === "string") (i === 0 ? left : legacy).push(rows);
    else
      for (const thread of rows)
        (i === 0 ? left : legacy).push(`${basename(database)} still has a row for thread ${thread}`);
  });
  return { left, legacy };
}
