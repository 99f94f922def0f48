// What `codex delete <thread>` takes besides the thread, asked of Codex's own records: it deletes
// every thread its state database's `thread_spawn_edges` lists as spawned by the thread, recursively
// (whatever the edge's status; verified with the binary). Our scan groups a subagent with its
// spawner by the `parent_thread_id` in the subagent's rollout — a rollout that lost its
// `session_meta` line (Codex re-creates a moved file without one) or that field is a session of its
// own to the scan, yet Codex deletes it with its spawner, for good. So before a delete (and for its
// preview) the database Codex reads is asked, read-only, and each spawned thread that is not part
// of the session is named: a session of the scan, or a file that is none.
//
// Read with the `sqlite3` CLI (`-readonly`), as the check after a delete already is: `node:sqlite`
// is not in every Node this package supports (22.12 needs a flag for it) and warns that it is
// experimental on every run. We never write Codex's databases. Read without blocking: the plan of
// every look asks (plan/agent-takes.ts) — the dashboard's looks again only once a file it reads
// changed (`spawnEdgeFiles`) — and the dashboard's server answers others meanwhile.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { basename } from "node:path";
import type { AlsoDeleted, StoreScan } from "../adapter-types.js";
import { sqlite3Of, stateDatabases, threadsOfPaths } from "./codex-delete.js";
import { codexSqliteHome } from "./location.js";
import { parseRolloutName } from "./rollout-name.js";

/** A parent thread → the threads it spawned, as Codex's database records them (ids lower-cased). */
export type SpawnEdges = ReadonlyMap<string, readonly string[]>;

const threadOf = (path: string) => parseRolloutName(basename(path))?.thread;

/** The most output an edge listing may have: ~900,000 edges, far beyond any real store. */
const MAX_OUTPUT = 64 * 1024 * 1024;

/**
 * What `spawnEdges` reads from: the folders the state database is chosen in (a newer database
 * appearing changes them), and that database with its write-ahead log.
 */
export function spawnEdgeFiles(root: string, env: NodeJS.ProcessEnv): string[] {
  const [database] = stateDatabases(root, env);
  return [...new Set([codexSqliteHome(root, env), root]), ...(database ? [database, `${database}-wal`] : [])];
}

/**
 * Every spawn edge of the state database Codex reads (the first of `stateDatabases`), read-only;
 * none when there is no database yet (Codex then makes its edges from the rollouts' headers, which
 * the scan reads too). A string when it cannot be read.
 */
export async function spawnEdges(root: string, env: NodeJS.ProcessEnv): Promise<SpawnEdges | string> {
  const [database] = stateDatabases(root, env);
  if (database === undefined) return new Map();
  const sqlite3 = sqlite3Of(env);
  if (typeof sqlite3 !== "string") return sqlite3.missing;
  const run = await new Promise<{ status: number | null; stdout: string; said: string }>((resolve) =>
    execFile(
      sqlite3,
      [
        "-readonly",
        "-batch",
        "-noheader",
        "-separator",
        " ",
        "-cmd",
        ".timeout 5000",
        readOnlyName(database),
        "select lower(parent_thread_id), lower(child_thread_id) from thread_spawn_edges;",
      ],
      { encoding: "utf8", timeout: 60_000, maxBuffer: MAX_OUTPUT },
      (error, stdout, stderr) =>
        resolve({
          status: error ? (typeof error.code === "number" ? error.code : null) : 0,
          stdout,
          said: (stderr || (error && typeof error.code !== "number" ? error.message : "")).trim(),
        }),
    ),
  );
  // A Codex old enough to keep no spawn edges deletes no subtree either.
  if (run.status !== 0 && /no such table: thread_spawn_edges/.test(run.said)) return new Map();
  if (run.status !== 0)
    return `Codex's state database ${database} could not be read (${run.said || `sqlite3 exited ${run.status}`})`;
  const edges = new Map<string, string[]>();
  for (const line of run.stdout.split("\n")) {
    const [parent, child] = line.split(" ");
    if (!parent || !child) continue;
    edges.set(parent, [...(edges.get(parent) ?? []), child]);
  }
  return edges;
}

/**
 * How a database is named to sqlite3 so that reading it leaves Codex's home as it was. A read-only
 * open of a database in WAL mode makes its `-wal` and `-shm` files when they are missing, and cannot
 * remove them after (seen with Debian's sqlite3 3.40). Without a `-wal` file the database file holds
 * everything, and is read as immutable, which makes nothing; with one (Codex has the database open,
 * or was stopped with it open) both are there already and it is read as it is. A Codex that opens
 * it in between writes only for a live thread — kept from any delete — and the look after each
 * delete (delete/handover.ts) would see the rest.
 */
function readOnlyName(database: string): string {
  if (existsSync(`${database}-wal`)) return database;
  const path = database.replace(/[%?#]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
  return `file:${path}?immutable=1`;
}

/** Every thread below `thread` in the spawn tree, nearest first; a cycle ends where it closes. */
export function descendants(edges: SpawnEdges, thread: string): string[] {
  const seen = new Set([thread]);
  const found: string[] = [];
  for (let queue = [thread]; queue.length > 0;) {
    const next: string[] = [];
    for (const parent of queue)
      for (const child of edges.get(parent) ?? [])
        if (!seen.has(child)) {
          seen.add(child);
          found.push(child);
          next.push(child);
        }
    queue = next;
  }
  return found;
}

/**
 * What `codex delete` of each of `ids` would also take (the adapter's `alsoDeletes`, with `edges`
 * as `spawnEdges` read them): each spawned thread outside the session, as the session of the scan
 * it heads, or as the file it is when it heads none (a subagent's rollout of another session, a
 * rollout the scan could not read). Threads the database names without a rollout here take nothing
 * of ours and are left out; so is a session that takes nothing.
 */
export function codexAlsoDeletes(
  scan: StoreScan,
  ids: readonly string[],
  edges: SpawnEdges | string,
): Map<string, AlsoDeleted[]> | string {
  if (typeof edges === "string") return edges;
  const answer = new Map<string, AlsoDeleted[]>();
  // Most stores have no edge at all, and most threads spawn nothing: nothing to look up for them.
  if (edges.size === 0) return answer;
  // Each thread's rollout: the session it heads, or the session it is a part of.
  const rollouts = new Map<string, { session: string; heads: boolean; path: string }>();
  for (const record of scan.records) {
    const own = threadOf(record.path);
    for (const path of [record.path, ...(record.bundle ?? [])]) {
      const thread = threadOf(path);
      if (thread !== undefined && !rollouts.has(thread))
        rollouts.set(thread, { session: record.id, heads: thread === own, path });
    }
  }
  const strays = new Map<string, string>();
  for (const problem of scan.problems) {
    const thread = threadOf(problem.path);
    if (thread !== undefined && !strays.has(thread)) strays.set(thread, problem.path);
  }
  const byId = new Map(scan.records.map((r) => [r.id, r]));
  for (const id of ids) {
    const record = byId.get(id);
    const thread = record && threadOf(record.path);
    if (!record || thread === undefined || !edges.has(thread)) continue;
    const own = new Set(threadsOfPaths([record.path, ...(record.bundle ?? [])]));
    const below = descendants(edges, thread).filter((t) => !own.has(t));
    // Sessions taken whole first: their own subagents' rollouts go with them, not on their own.
    const whole = new Set(
      below.flatMap((t) => {
        const at = rollouts.get(t);
        return at?.heads ? [at.session] : [];
      }),
    );
    const takes: AlsoDeleted[] = [];
    for (const t of below) {
      const at = rollouts.get(t);
      const what = `its spawned thread ${t}`;
      if (at?.heads) takes.push({ what, session: at.session });
      else if (at && !whole.has(at.session))
        takes.push({ what: `${what}, a subagent's rollout of session ${at.session}`, path: at.path });
      else if (!at && strays.has(t)) takes.push({ what, path: strays.get(t)! });
    }
    if (takes.length > 0) answer.set(id, takes);
  }
  return answer;
}
