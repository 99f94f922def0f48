// The engine's side of a session its agent deletes itself (an adapter's `custody`, adapter-types.ts
// says why). After the intent: every part of the item is hard-linked into the quarantine — our copy
// is the very file (same inode), taken before anything is removed — then the agent deletes the
// session, we look that every other session of its store is still there and what the agent still
// shows of this one, and a part the agent left goes the way a move goes: its name in the store is
// removed, the trash holds the file. Undone from the disk: while every part the agent deletes is
// still in the store, it deleted nothing, and our links are simply removed.
import { linkSync, lstatSync, rmSync, unlinkSync } from "node:fs";
import { dirname } from "node:path";
import type { SessionRecord } from "../../shared/session-record.js";
import type { TrashItem } from "../../shared/trash.js";
import type { Custody, IndexRestore } from "../stores/adapter-types.js";
import { adapterOf } from "../stores/store-adapter.js";
import { makeDirs } from "../fs/make-dirs.js";
import { pathExists } from "./movers.js";
import { removeEmptiedFolders } from "./trashed-copy.js";

/** The original → trash pairs of an item: its own file and the rest of its bundle. */
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

/** Whether the agent deleted nothing of the item yet: every part it deletes is still in the store. */
const untouched = (item: TrashItem, custody: Custody) =>
  pairs(item).every(({ from }) => !custody.takes(from) || pathExists(from));

/** The custody an item goes through, if it is a session its agent deletes itself. */
export const custodyFor = (record: { store: { kind: SessionRecord["store"]["kind"] }; path: string }) => {
  const custody = adapterOf(record.store.kind).custody;
  return custody?.takes(record.path) ? custody : undefined;
};

/**
 * The files of the scan's sessions that no agent's delete of this operation has been run for: after
 * each one, every one of them must still be there — the proof that the agent took nothing outside
 * the item (plan/agent-takes.ts asks it beforehand; this looks afterwards).
 */
export class Bystanders {
  private readonly files = new Map<string, { id: string; root: string }>();
  constructor(sessions: ReadonlyArray<Pick<SessionRecord, "id" | "store" | "path" | "bundle">>) {
    for (const s of sessions)
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

export type HandOverOutcome = ({ moved: true; notes: string[] } | { moved: false; reason: string }) & {
  /** Files of sessions outside the item that were gone once the agent's delete had run: lost. */
  vanished: Array<{ id: string; path: string }>;
};

/** Takes our copy, has the agent delete the session, and checks what is left — of it, and of the rest. */
export function handOver(
  item: TrashItem,
  custody: Custody,
  env: NodeJS.ProcessEnv,
  crash: (step: string) => void,
  bystanders: Bystanders,
): HandOverOutcome {
  const all = pairs(item);
  for (const { from, to } of all) {
    makeDirs(dirname(to));
    linkSync(from, to);
    if (!sameFile(from, to)) throw new Error(`the link of ${from} at ${to} is not the same file`);
  }
  crash("linked");
  const stays = bystanders.leaving(all.map((p) => p.from));
  const deleted = custody.remove(item, env, crash);
  const vanished = bystanders.vanished(item.storeRoot);
  if (!deleted.ok && untouched(item, custody)) {
    // The agent removed nothing: the session stays as it was, and our links go (their folders with them).
    for (const { to } of all) rmSync(to, { force: true });
    removeEmptiedFolders(item);
    stays();
    return { moved: false, reason: deleted.message, vanished };
  }
  finishMove(item);
  const notes = [
    ...(deleted.ok ? [] : [`${deleted.message}; it removed part of the session`]),
    ...custody.proveGone(item, env, pathExists),
  ];
  return { moved: true, notes, vanished };
}

/** The names in the store of files our trash now holds (a part the agent did not remove). */
function finishMove(item: TrashItem) {
  for (const { from, to } of pairs(item)) if (sameFile(from, to)) unlinkSync(from);
}

/**
 * Recovery of a hand-over a crash interrupted: undone while every part the agent deletes is still in
 * the store (it deleted nothing yet; our links, if made, go), finished once it removed any of it.
 */
export function recoverHandOver(
  item: TrashItem,
  custody: Custody,
  env: NodeJS.ProcessEnv,
): "rolled-back" | "finished" {
  // A process of ours killed while the agent's delete ran leaves that child running: it may still
  // remove the originals. Judged only once it is done, or our links could go with the originals.
  // The agent's delete starts only once every link is made: an item with none (an intent of a
  // batch the kill never reached) has none running, and is not waited for — a recovery of 1,500
  // such intents would otherwise look for half a second each.
  if (pairs(item).some(({ to }) => pathExists(to))) custody.awaitRunning(item);
  if (untouched(item, custody)) {
    for (const { from, to } of pairs(item)) if (sameFile(from, to)) rmSync(to, { force: true });
    // And the folders our links were made in: without this, a move undone after its links left its
    // emptied `<n>.sidecars/` folder (and, alone, its operation's folder) in the quarantine for
    // good, named by no entry (found by the Codex crash harness, codex-crash-recovery.test.ts).
    removeEmptiedFolders(item);
    return "rolled-back";
  }
  finishMove(item);
  // The agent may have stopped half-way (a file gone, its index line or row not yet): ask it again.
  custody.remove(item, env, () => {});
  return "finished";
}

/**
 * A restore's lines of its agent's index, made ready before anything moves back (the custody's
 * `indexRestore`): an entry whose agent keeps no index of ours needs nothing.
 */
export function indexRestoreFor(item: TrashItem): IndexRestore | string {
  return adapterOf(item.storeKind).custody?.indexRestore(item) ?? { put() {}, close() {} };
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
