// Whether this process may move a file or folder out of its folder into another: the facts a
// rename (or a hard link) depends on, probed, and one pure judgement of them. A rename writes in the
// folder it leaves and in the one it enters (write and search rights on both); in a folder with the
// sticky bit only the entry's or the folder's owner may take it out; a folder moved to another
// folder rewrites its own `..` (write on the folder itself); a rename and a link stay on one file
// system. Nothing here knows what a session is.
import { accessSync, constants, lstatSync, readFileSync } from "node:fs";
import { dirname } from "node:path";

/** One file or folder as a move of it depends on. */
export interface EntryFacts {
  path: string;
  kind: "file" | "folder" | "other";
  /**
   * Its owner and file system — undefined when not looked at: a file known to be one, renamed out
   * of a folder without the sticky bit, needs nothing of itself (a preview of 100,000 sessions
   * saves an lstat each).
   */
  uid?: number;
  dev?: number;
  /**
   * Whether this process may write in it (a folder: a move to another folder rewrites its `..`) or
   * to it (a file to be hard-linked). Asked only where the move needs it: undefined otherwise.
   */
  writable?: boolean;
  /** Whether this process may read it: asked only for a file to be hard-linked. */
  readable?: boolean;
}

/** A folder something leaves or enters. */
export interface FolderFacts {
  path: string;
  uid: number;
  dev: number;
  sticky: boolean;
  /** Whether this process may add and remove entries in it (write and search). */
  writable: boolean;
}

/** What is wrong, and the command that puts it right. */
export interface Refusal {
  /** A sentence naming the path: "/x/y is owned by root and you may not write in it". */
  problem: string;
  /** A shell command for the fix: "sudo chown -R \"$USER\" /x/y". */
  fix: string;
}

/** The sticky bit of a mode (S_ISVTX). */
const STICKY = 0o1000;

const can = (path: string, mode: number) => {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
};

/**
 * The facts for paths, each looked at once: a store's many sessions share a few folders. One probe
 * serves one decision (a preview, a deletion): a fact kept longer could be stale.
 */
export function renameProbe() {
  const folders = new Map<string, FolderFacts | undefined>();
  const folder = (path: string): FolderFacts | undefined => {
    if (folders.has(path)) return folders.get(path);
    const stat = lstatSync(path, { throwIfNoEntry: false });
    const facts = stat?.isDirectory()
      ? {
          path,
          uid: stat.uid,
          dev: stat.dev,
          sticky: (stat.mode & STICKY) !== 0,
          writable: can(path, constants.W_OK | constants.X_OK),
        }
      : undefined;
    folders.set(path, facts);
    return facts;
  };
  const nearest = new Map<string, FolderFacts | undefined>();
  return {
    /**
     * The entry at `path` (never followed), or undefined when nothing is there: one lstat, and the
     * rights only where a move needs them (a folder's write; a file's read and write when `linked`).
     * `knownFile`: the caller knows it is a regular file (its scan said so) — then, unless it is to
     * be linked or its folder has the sticky bit, it is not looked at.
     */
    entry(path: string, { linked = false, knownFile = false } = {}): EntryFacts | undefined {
      if (knownFile && !linked && folder(dirname(path))?.sticky === false) return { path, kind: "file" };
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (!stat) return undefined;
      const kind = stat.isDirectory() ? "folder" : stat.isFile() ? "file" : "other";
      const facts: EntryFacts = { path, kind, uid: stat.uid, dev: stat.dev };
      if (kind === "folder" || (kind === "file" && linked)) facts.writable = can(path, constants.W_OK);
      if (kind === "file" && linked) facts.readable = can(path, constants.R_OK);
      return facts;
    },
    folder,
    /** The folder `path` would be made in: itself, or its nearest existing ancestor (made on first use). */
    nearestFolder(path: string): FolderFacts | undefined {
      if (!nearest.has(path))
        for (let at = path; ; at = dirname(at)) {
          if (lstatSync(at, { throwIfNoEntry: false })) {
            nearest.set(path, folder(at));
            break;
          }
          if (at === dirname(at)) {
            nearest.set(path, undefined);
            break;
          }
        }
      return nearest.get(path);
    },
  };
}

/** How an entry gets to its destination. */
export type MoveWay =
  /** One rename: the same file system is required (a folder). */
  | "rename"
  /** A rename, or a copy and removal across file systems (a file). */
  | "rename-or-copy"
  /** A hard link, then the original's name is removed: the same file system, and a file one may link. */
  | "link";

/**
 * Why the entry `source` (in `from`) cannot be moved into `to` (the destination folder, or its
 * nearest existing ancestor) by a process of uid `me`, or undefined when it can. Pure.
 */
export function moveRefusal(
  source: EntryFacts,
  from: FolderFacts,
  to: FolderFacts,
  way: MoveWay,
  me: number,
  owner: (uid: number) => string = ownerName,
): Refusal | undefined {
  const mine = (uid: number | undefined) => uid === me;
  // Yours: add the right; another's: make it yours (recursive for a folder, so that a purge can empty it).
  const fixFor = (
    { path, uid }: { path: string; uid?: number | undefined },
    recursive: boolean,
    rights: string,
  ) =>
    mine(uid)
      ? `chmod ${recursive ? "-R " : ""}u+${rights} ${shellQuote(path)}`
      : `sudo chown ${recursive ? "-R " : ""}"$USER" ${shellQuote(path)}`;
  const whose = (uid: number | undefined) =>
    mine(uid)
      ? "yours, but not writable"
      : uid === undefined
        ? "not writable by you"
        : `owned by ${owner(uid)}`;
  if (source.kind === "other")
    return {
      problem: `${source.path} is neither a file nor a folder`,
      fix: `ls -l ${shellQuote(source.path)}`,
    };
  if (!from.writable)
    return {
      problem: `${from.path} is ${whose(from.uid)}, and moving ${source.path} out of it writes in it`,
      fix: fixFor(from, false, "wx"),
    };
  // The sticky bit (as /tmp has): only the entry's owner, the folder's owner or root may take it out.
  if (from.sticky && me !== 0 && !mine(source.uid) && !mine(from.uid))
    return {
      problem: `${source.path} is owned by ${source.uid === undefined ? "someone else" : owner(source.uid)} in ${from.path}, whose sticky bit lets only its owner move it`,
      fix: `sudo chown "$USER" ${shellQuote(source.path)}`,
    };
  // A folder that changes folder gets a new `..`: the rename writes in the folder itself.
  if (source.kind === "folder" && source.writable === false && from.path !== to.path)
    return {
      problem: `${source.path} is ${whose(source.uid)}, and a folder can only be moved by someone who may write in it`,
      fix: fixFor(source, true, "w"),
    };
  // Linux's protected hard links: another user's file may be linked only when one may read and write it.
  if (
    way === "link" &&
    source.kind === "file" &&
    me !== 0 &&
    !mine(source.uid) &&
    !(source.readable && source.writable)
  )
    return {
      problem: `${source.path} is owned by ${source.uid === undefined ? "someone else" : owner(source.uid)}, and only its owner may hard-link it`,
      fix: `sudo chown "$USER" ${shellQuote(source.path)}`,
    };
  if (!to.writable)
    return {
      problem: `${to.path} is ${whose(to.uid)}, and ${source.path} would be moved into it`,
      fix: fixFor(to, false, "wx"),
    };
  return undefined;
}

/** `path` as one shell word. */
export function shellQuote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

let accounts: Map<number, string> | undefined;

/** A user's name from /etc/passwd ("root"), or "uid 1001" when it has none there. */
export function ownerName(uid: number): string {
  if (!accounts) {
    accounts = new Map([[0, "root"]]);
    try {
      for (const line of readFileSync("/etc/passwd", "utf8").split("\n")) {
        const [name, , id] = line.split(":");
        if (name && id && /^\d+$/.test(id) && !accounts.has(Number(id))) accounts.set(Number(id), name);
      }
    } catch {
      // no passwd file (a minimal container): numbers it is
    }
  }
  return accounts.get(uid) ?? `uid ${uid}`;
}

/**
 * Why this process cannot move `from` to `to` (a path in a folder that exists or will be made)
 * now, probed now; undefined when it can, or when either side cannot be looked at.
 */
export function moveRefusalNow(from: string, to: string, me = process.getuid?.() ?? -1): Refusal | undefined {
  const probe = renameProbe();
  const entry = probe.entry(from);
  const source = probe.folder(dirname(from));
  const destination = probe.nearestFolder(dirname(to));
  if (!entry || !source || !destination) return undefined;
  return moveRefusal(entry, source, destination, entry.kind === "folder" ? "rename" : "rename-or-copy", me);
}
