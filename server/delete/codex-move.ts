// The engine's move of a Codex session (server/stores/codex/codex-delete.ts says why it is done
// this way). After the intent: every rollout of the session is hard-linked into the quarantine —
// our copy is the very file (same inode), taken before anything is removed — then `codex delete`
// removes the thread, its subagents, their index lines and rows, then we look that all of it is
// gone, and a rollout Codex left (a `.zst` sibling it does not read) goes the way a move goes: its
// name in the store is removed, the trash holds the file. Undone from the disk: while every original
// is still in the store, Codex deleted nothing, and our links are simply removed.
import { linkSync, lstatSync, readdirSync, readFileSync, rmSync, unlinkSync } from "node:fs";
import { dirname } from "node:path";
import type { TrashItem } from "../../shared/trash.js";
import {
  type CodexTools,
  codexDelete,
  codexTools,
  codexTraces,
  threadsOfPaths,
} from "../stores/codex/codex-delete.js";
import { makeDirs } from "../fs/make-dirs.js";
import { appendIndexLines, indexLinesOf } from "../stores/codex/session-index.js";
import { pathExists } from "./movers.js";
import { removeEmptiedFolders } from "./trashed-copy.js";

/** The original → trash pairs of an item: its rollout and the rest of its bundle. */
const pairs = (item: TrashItem) => [
  { from: item.originalPath, to: item.location! },
  ...item.sidecars.map((s) => ({ from: s.from, to: s.to })),
];

const inode = (path: string) => {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  return stat?.isFile() ? `${stat.dev}:${stat.ino}` : undefined;
};

/** Whether `link` is a hard link of `original` (both there, one file). */
const sameFile = (original: string, link: string) => {
  const a = inode(original);
  return a !== undefined && a === inode(link);
};

/** What a Codex item needs before its intent: the tools, and its index lines (for the restore). */
export function codexPreflight(
  storeRoot: string,
  paths: readonly string[],
  env: NodeJS.ProcessEnv,
): { tools: CodexTools; indexLines: string[] } | string {
  const tools = codexTools(env);
  if (typeof tools === "string") return tools;
  return { tools, indexLines: indexLinesOf(storeRoot, threadsOfPaths(paths)) };
}

export type CodexMoveOutcome = { moved: true; notes: string[] } | { moved: false; reason: string };

/** Takes our copy, has Codex delete the thread, and checks what is left. */
export function moveCodexSession(
  item: TrashItem,
  tools: CodexTools,
  env: NodeJS.ProcessEnv,
  crash: (step: string) => void,
): CodexMoveOutcome {
  const all = pairs(item);
  for (const { from, to } of all) {
    makeDirs(dirname(to));
    linkSync(from, to);
    if (!sameFile(from, to)) throw new Error(`the link of ${from} at ${to} is not the same file`);
  }
  crash("linked");
  const thread = threadsOfPaths([item.originalPath])[0]!;
  const deleted = codexDelete(tools, item.storeRoot, thread, env);
  crash("codex-deleted");
  if (!deleted.ok && all.every(({ from }) => pathExists(from))) {
    // Codex removed nothing: the session stays as it was, and our links go (their folders with them).
    for (const { to } of all) rmSync(to, { force: true });
    removeEmptiedFolders(item);
    return { moved: false, reason: deleted.message };
  }
  finishMove(item);
  const traces = codexTraces(
    tools,
    item.storeRoot,
    threadsOfPaths(all.map((p) => p.from)),
    all.map((p) => p.from),
    env,
    pathExists,
  );
  const notes = [
    ...(deleted.ok ? [] : [`${deleted.message}; it removed part of the session`]),
    ...traces.left.map((t) => `Codex may still list it: ${t}`),
    ...traces.legacy.map((t) => `${t} (an older Codex's database, not read by this one; left as it is)`),
  ];
  return { moved: true, notes };
}

/** The names in the store of files our trash now holds (a rollout Codex did not remove). */
function finishMove(item: TrashItem) {
  for (const { from, to } of pairs(item)) if (sameFile(from, to)) unlinkSync(from);
}

/**
 * Recovery of a Codex move a crash interrupted: undone while every original is still in the store
 * (Codex deleted nothing yet; our links, if made, go), finished once Codex removed any of it.
 */
export function recoverCodexMove(item: TrashItem, env: NodeJS.ProcessEnv): "rolled-back" | "finished" {
  const all = pairs(item);
  // A process of ours killed while `codex delete` ran leaves that child running: it may still
  // remove the originals. Judged only once it is done, or our links could go with the originals.
  waitForCodexDelete(threadsOfPaths([item.originalPath])[0]!);
  // Every original still in the store: Codex deleted nothing, so the move is undone.
  if (all.every(({ from }) => pathExists(from))) {
    for (const { from, to } of all) if (sameFile(from, to)) rmSync(to, { force: true });
    // And the folders our links were made in: without this, a move undone after its links left its
    // emptied `<n>.sidecars/` folder (and, alone, its operation's folder) in the quarantine for
    // good, named by no entry (found by the Codex crash harness, codex-crash-recovery.test.ts).
    removeEmptiedFolders(item);
    return "rolled-back";
  }
  finishMove(item);
  // Codex may have stopped half-way (a rollout gone, its row or index line not yet): ask it again.
  const tools = codexTools(env);
  if (typeof tools !== "string")
    codexDelete(tools, item.storeRoot, threadsOfPaths([item.originalPath])[0]!, env);
  return "finished";
}

/** How long recovery waits for a `codex delete` left running (it takes well under a second). */
const CODEX_DELETE_WAIT_MS = 60_000;

/**
 * Waits while a `codex delete … <thread>` process is alive (Linux: each process's `cmdline` in
 * /proc; elsewhere there is no such look, and recovery runs at once). Synchronous, as recovery is.
 */
export function waitForCodexDelete(thread: string, waitMs = CODEX_DELETE_WAIT_MS, procDir = "/proc") {
  const running = () => {
    let pids: string[];
    try {
      pids = readdirSync(procDir).filter((name) => /^\d+$/.test(name));
    } catch {
      return false;
    }
    return pids.some((pid) => {
      try {
        const args = readFileSync(`${procDir}/${pid}/cmdline`, "utf8").split("\0");
        return args.includes("delete") && args.includes(thread);
      } catch {
        return false;
      }
    });
  };
  const until = Date.now() + waitMs;
  while (running() && Date.now() < until) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
}

/**
 * After a restore: Codex's names of the threads come back (the last line of an id wins). Lines the
 * index has again already (a restore recovery finishing what a crash cut) are not doubled.
 */
export function restoreCodexIndex(item: TrashItem) {
  const lines = item.indexLines ?? [];
  const present = new Set(indexLinesOf(item.storeRoot, threadsOfPaths([item.originalPath])));
  appendIndexLines(
    item.storeRoot,
    lines.filter((line) => !present.has(line)),
  );
}
