// The engine's move of a Codex session (server/stores/codex/codex-delete.ts says why it is done
// this way). After the intent: every rollout of the session is hard-linked into the quarantine —
// our copy is the very file (same inode), taken before anything is removed — then `codex delete`
// removes the thread, its subagents, their index lines and rows, then we look that all of it is
// gone, and a rollout Codex left (a `.zst` sibling it does not read) goes the way a move goes: its
// name in the store is removed, the trash holds the file. Undone from the disk: while every original
// is still in the store, Codex deleted nothing, and our links are simply removed.
import { linkSync, lstatSync, readdirSync, readFileSync, rmSync, unlinkSync } from "node:fs";
import { dirname } from "node:path";
import type { SessionRecord } from "../../shared/session-record.js";
import type { TrashItem } from "../../shared/trash.js";
import {
  type CodexTools,
  codexDelete,
  codexTools,
  codexTraces,
  threadsOfPaths,
} from "../stores/codex/codex-delete.js";
import { makeDirs } from "../fs/make-dirs.js";
import { indexLinesOf, openSessionIndex } from "../stores/codex/session-index.js";
import { pathExists } from "./movers.js";
import { removeEmptiedFolders } from "./trashed-copy.js";

/** The original → trash pairs of an item: its rollout and the rest of its bundle. */
const pairs = (item: TrashItem) => [
  { from: item.originalPath, to: item.location! },
  ...item.sidecars.map((s) => ({ from: s.from, to: s.to })),
];

/**
 * The rollouts among an item's pairs: whether Codex deleted anything is judged by them alone (a
 * thread's other files — a shell snapshot Codex 0.171 removes — say nothing of its rows and lines).
 */
const rolloutsOf = (all: ReadonlyArray<{ from: string; to: string }>) =>
  all.filter(({ from }) => threadsOfPaths([from]).length > 0);

const inode = (path: string) => {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  return stat?.isFile() ? `${stat.dev}:${stat.ino}` : undefined;
};

/** Whether `link` is a hard link of `original` (both there, one file). */
const sameFile = (original: string, link: string) => {
  const a = inode(original);
  return a !== undefined && a === inode(link);
};

/**
 * Whether an item is a Codex thread's session, removed through `codex delete`: its path is a
 * rollout. A thread's orphaned per-thread files (no rollout, nothing Codex lists) move as files do.
 */
export const deletedByCodex = (record: { store: { kind: string }; path: string }) =>
  record.store.kind === "codex" && threadsOfPaths([record.path]).length > 0;

/** What a Codex item needs before its intent: Codex's tools. */
export function codexPreflight(env: NodeJS.ProcessEnv): { tools: CodexTools } | string {
  const tools = codexTools(env);
  return typeof tools === "string" ? tools : { tools };
}

/** A Codex item's lines of `session_index.jsonl` (of every thread it holds): a restore appends them again. */
export const codexIndexLines = (record: { store: { root: string }; path: string; bundle?: string[] }) =>
  indexLinesOf(record.store.root, threadsOfPaths([record.path, ...(record.bundle ?? [])]));

/**
 * The rollouts of the scan's Codex sessions that no `codex delete` of this operation has been run
 * for: after each one, every one of them must still be there — the proof that Codex took nothing
 * outside the item (plan/agent-takes.ts asks it beforehand; this looks afterwards).
 */
export class Bystanders {
  private readonly files = new Map<string, { id: string; root: string }>();
  constructor(sessions: ReadonlyArray<Pick<SessionRecord, "id" | "store" | "path" | "bundle">>) {
    for (const s of sessions)
      if (s.store.kind === "codex")
        for (const path of [s.path, ...(s.bundle ?? [])])
          this.files.set(path, { id: s.id, root: s.store.root });
  }
  /**
   * An item's own files, from its delete on: no bystander's. Returns what puts them back, for a
   * delete that removed nothing (the session stays, a bystander of the next one).
   */
  leaving(paths: readonly string[]): () => void {
    const left = paths.flatMap((path) => {
      const owner = this.files.get(path);
      this.files.delete(path);
      return owner ? [[path, owner] as const] : [];
    });
    return () => {
      for (const [path, owner] of left) this.files.set(path, owner);
    };
  }
  /** The bystanders' files in the store at `root` that are gone now (each said once). */
  vanished(root: string): Array<{ id: string; path: string }> {
    const gone: Array<{ id: string; path: string }> = [];
    for (const [path, owner] of this.files)
      if (owner.root === root && !pathExists(path)) {
        gone.push({ id: owner.id, path });
        this.files.delete(path);
      }
    return gone;
  }
}

export type CodexMoveOutcome = ({ moved: true; notes: string[] } | { moved: false; reason: string }) & {
  /** Files of sessions outside the item that were gone once Codex's delete had run: lost. */
  vanished: Array<{ id: string; path: string }>;
};

/** Takes our copy, has Codex delete the thread, and checks what is left — of it, and of the rest. */
export function moveCodexSession(
  item: TrashItem,
  tools: CodexTools,
  env: NodeJS.ProcessEnv,
  crash: (step: string) => void,
  bystanders = new Bystanders([]),
): CodexMoveOutcome {
  const all = pairs(item);
  for (const { from, to } of all) {
    makeDirs(dirname(to));
    linkSync(from, to);
    if (!sameFile(from, to)) throw new Error(`the link of ${from} at ${to} is not the same file`);
  }
  crash("linked");
  const thread = threadsOfPaths([item.originalPath])[0]!;
  const stays = bystanders.leaving(all.map((p) => p.from));
  const deleted = codexDelete(tools, item.storeRoot, thread, env);
  const vanished = bystanders.vanished(item.storeRoot);
  crash("codex-deleted");
  if (!deleted.ok && rolloutsOf(all).every(({ from }) => pathExists(from))) {
    // Codex removed nothing: the session stays as it was, and our links go (their folders with them).
    for (const { to } of all) rmSync(to, { force: true });
    removeEmptiedFolders(item);
    stays();
    return { moved: false, reason: deleted.message, vanished };
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
  return { moved: true, notes, vanished };
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
  if (rolloutsOf(all).every(({ from }) => pathExists(from))) {
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

/** What a restore puts back into an agent's index once the files are back, and the index held open till then. */
export interface IndexRestore {
  /** Appends the entry's lines (those the index lacks), and closes the index. */
  put(): void;
  close(): void;
}

/**
 * A restore's index lines — Codex's names of the entry's threads (the last line of an id wins) —
 * made ready before anything moves back: the index opened to append to, or why it cannot be (a
 * symlink, a FIFO…); then the restore is refused and the entry stays in the trash. An entry with no
 * lines needs nothing.
 */
export function indexRestoreFor(item: TrashItem): IndexRestore | string {
  const lines = item.indexLines ?? [];
  if (lines.length === 0) return { put() {}, close() {} };
  const index = openSessionIndex(item.storeRoot);
  if (typeof index === "string") return index;
  return {
    put() {
      // Lines the index has again already (a restore recovery finishing what a crash cut) are not doubled.
      const threads = threadsOfPaths([item.originalPath, ...item.sidecars.map((s) => s.from)]);
      const present = new Set(index.linesOf(threads));
      index.append(lines.filter((line) => !present.has(line)));
    },
    close: index.close,
  };
}

/**
 * Recovery's form, once the files are back: the lines appended now, or what stopped it — said,
 * never thrown, so that the restore is recorded and nothing wedges.
 */
export function putIndexBack(item: TrashItem): string | undefined {
  const index = indexRestoreFor(item);
  if (typeof index === "string") return `its names were not put back: ${index}`;
  try {
    index.put();
    return undefined;
  } catch (error) {
    index.close();
    return `its names were not put back: ${(error as Error).message}`;
  }
}
