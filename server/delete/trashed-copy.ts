// A trash entry's copy on disk: where it is, whether it is still the very one we put there, and the
// files that travel with it. A purge and a restore act only on our own copy: a file someone put at
// the trash location since (even one of the same size) is left alone, and so is a path whose folder
// became a symlink.
import { lstatSync, realpathSync, rmdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { isFolderSession } from "../../shared/session-record.js";
import type { TrashEntry, TrashItem } from "../../shared/trash.js";

type TrashedIdentity = NonNullable<TrashItem["trashedIdentity"]>;
import { sameIdentity } from "../fs/file-identity.js";
import { currentFingerprint, moveFile, pathExists, sha256 } from "./movers.js";

/** What a trash location holds now, for an entry. */
export type TrashedCopy =
  { state: "ours" } | { state: "gone"; reason: string } | { state: "not-ours"; reason: string };

/** A path's change time in nanoseconds (of the link itself, never followed), if it exists. */
const ctimeNsOf = (path: string) =>
  lstatSync(path, { bigint: true, throwIfNoEntry: false })?.ctimeNs.toString();

/** The trashed copy as it is just after a move: what later purges and restores compare with. */
export function identityAfterMove(
  location: string,
  item: Pick<TrashItem, "storeKind" | "folder" | "fingerprint">,
  copiedHash?: string,
): { identity?: TrashedIdentity; sha256?: string } {
  const folder = isFolderSession(item);
  const fingerprint = currentFingerprint(location, folder);
  const ctimeNs = ctimeNsOf(location);
  if (!fingerprint || !ctimeNs) return {};
  const identity = { ...fingerprint, ctimeNs };
  // A copy to another file system (the desktop trash of another mount) gets its content hash too.
  const copied = identity.dev !== item.fingerprint.dev || identity.ino !== item.fingerprint.ino;
  const hash = copiedHash ?? (copied && !folder ? sha256(location) : undefined);
  return { identity, ...(hash ? { sha256: hash } : {}) };
}

const goneReason = (location: string) =>
  `gone from the trash: ${location} is no longer there (the trash was emptied, or it was removed outside session-retention); there is nothing to restore or purge`;

/**
 * Whether the entry's trash location holds the very copy we put there: the same device, inode,
 * size and mtime (and content, where the move was a copy). For a purge — the one thing that cannot
 * be undone — also the same change time, which nobody can set: a file that took the slot since is
 * told apart even if it reuses the inode and copies size and mtime. A restore destroys nothing,
 * so a copy someone moved aside and back (a new change time) still restores.
 */
export function trashedCopy(entry: TrashEntry, forPurge = false): TrashedCopy {
  const location = entry.location;
  if (!location || !pathExists(location))
    return { state: "gone", reason: goneReason(location ?? "its copy") };
  const notOurs = (what: string): TrashedCopy => ({
    state: "not-ours",
    reason: `the file at ${location} is not the one session-retention put there (${what}); nothing was done to it`,
  });
  if (!realFolder(dirname(location))) return notOurs("its folder is now reached through a symlink");
  const folder = isFolderSession(entry);
  const now = currentFingerprint(location, folder);
  if (!now) return notOurs(folder ? "it is not a folder" : "it is not a regular file, or a symlink");
  if (entry.trashedIdentity) {
    const { ctimeNs } = entry.trashedIdentity;
    if (!sameIdentity(entry.trashedIdentity, now)) return notOurs("its device, inode, size or time differ");
    if (forPurge && ctimeNs !== undefined && ctimeNs !== ctimeNsOf(location))
      return notOurs("it was replaced or changed since it was put there");
  } else {
    // Written before identities were recorded: the size, and for a file the time (a move keeps it).
    const sameTime = folder || now.mtimeNs.slice(0, -6) === entry.fingerprint.mtimeNs.slice(0, -6);
    if (now.size !== entry.fingerprint.size || !sameTime) return notOurs("its size or time differ");
  }
  if (entry.sha256 && !folder && sha256(location) !== entry.sha256) return notOurs("its content differs");
  return { state: "ours" };
}

/** Whether `folder` is its own real path: no symlink anywhere on the way to it. A missing one is fine. */
export function realFolder(folder: string): boolean {
  try {
    return realpathSync(folder) === folder;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/**
 * Moves the files that travel with a session (pi's session-index file, a bundle's parts) away with
 * it, or back. Part by part, each only when it is still on its side: run again after a crash, it
 * moves what is left. `crash` is the crash harness's hook, called after each part.
 */
export function moveSidecars(
  item: TrashItem,
  direction: "away" | "back",
  crash: (step: string) => void = () => {},
) {
  for (const sidecar of item.sidecars) {
    const [from, to] = direction === "away" ? [sidecar.from, sidecar.to] : [sidecar.to, sidecar.from];
    if (pathExists(from) && !pathExists(to)) {
      moveFile(from, to);
      crash("sidecar-moved");
    }
  }
}

/**
 * Undoes a move that did not finish, whole: the item's own file or folder back from `location`
 * (where it went), its `.trashinfo` removed, every part that left back, and the quarantine folders
 * they emptied removed. Each step only where the copy is on the trash's side and its place is free,
 * so it can run again after a crash and never overwrites; a step that fails throws, and what was
 * put back stays put back.
 */
export function moveBack(
  item: TrashItem,
  location: string | undefined,
  trashInfo: string | undefined,
  crash: (step: string) => void = () => {},
) {
  if (location && pathExists(location) && !pathExists(item.originalPath)) {
    moveFile(location, item.originalPath);
    crash("moved-back");
  }
  if (trashInfo) rmSync(trashInfo, { force: true });
  moveSidecars(item, "back", crash);
  removeEmptiedFolders({ ...item, ...(location ? { location } : {}) });
}

/** Removes a purged entry's sidecars from our quarantine: a bundle's side folders go as a whole. */
export function removeSidecars(item: TrashItem) {
  for (const sidecar of item.sidecars) rmSync(sidecar.to, { force: true, recursive: true });
}

/**
 * After a restore or a purge: the quarantine folders that held only this item go — the folders of
 * its sidecars up to its `<n>.sidecars` folder, then its operation's folder once it holds nothing
 * else. rmdir removes only an empty folder, so anything still there stays.
 */
export function removeEmptiedFolders(item: TrashItem) {
  const folders = new Set<string>();
  for (const { to } of item.sidecars) {
    const base = /^(.*\/\d+\.sidecars)\//.exec(to)?.[1] ?? dirname(to);
    for (let folder = dirname(to); folder.length >= base.length; folder = dirname(folder))
      folders.add(folder);
    folders.add(dirname(base));
  }
  if (item.target === "quarantine" && item.location) folders.add(dirname(item.location));
  // Deepest first, so a folder is empty by the time its parent is tried.
  for (const folder of [...folders].sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(folder);
    } catch {
      // Not empty (or gone already): nothing to tidy.
    }
  }
}
