// Moving one file safely: a rename where possible; across file systems, copy → fsync → verify (size
// and SHA-256) → keep the mtime → remove the source. And the freedesktop system trash — the home
// trash by our own journaled move, a mount's trash through the `trash` package, whose report we do
// not trust: every move is verified on disk.
import { createHash } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  futimesSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import trash from "trash";
import type { Fingerprint } from "../../shared/session-record.js";
import { UserError } from "../errors.js";
import { identityOf, sameIdentity } from "../fs/file-identity.js";
import { fsyncDir } from "../fs/atomic-write.js";
import { makeDirs } from "../fs/make-dirs.js";
import { homeTrashDir, moveToHomeTrash, onHomeTrashDevice } from "../fs/desktop-trash.js";
import { measureFolder } from "../stores/folder-session.js";

export class MoveError extends UserError {
  override name = "MoveError";
}

const exists = (path: string) => {
  try {
    lstatSync(path);
    return true;
  } catch (error) {
    // ENOTDIR: a file stands where a folder on the way should be, so nothing is at this path.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return false;
    throw error;
  }
};

/**
 * The session at `path` as it is now, never through a symlink: a file opened with O_NOFOLLOW, or a
 * folder measured by what is inside. Undefined when it is gone, a symlink, or the wrong kind.
 */
export function currentFingerprint(path: string, folder = false): Fingerprint | undefined {
  if (folder) {
    try {
      return measureFolder(path).fingerprint;
    } catch {
      return undefined;
    }
  }
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd, { bigint: true });
    if (!stat.isFile()) return undefined;
    const { dev, ino, size, mtimeNs } = identityOf(stat);
    return { dev, ino, size, mtimeNs };
  } finally {
    closeSync(fd);
  }
}

export const unchanged = (a: Fingerprint, b: Fingerprint | undefined) =>
  b !== undefined && sameIdentity(a, b);

export function sha256(path: string): string {
  const hash = createHash("sha256");
  const fd = openSync(path, "r");
  const buffer = Buffer.allocUnsafe(1 << 20);
  try {
    for (let n; (n = readSync(fd, buffer, 0, buffer.length, null)) > 0;) hash.update(buffer.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
}

/** Copies, checks the copy byte for byte (by SHA-256), and returns that hash. */
function copyVerified(from: string, to: string): string {
  const source = lstatSync(from);
  const input = openSync(from, constants.O_RDONLY | constants.O_NOFOLLOW);
  const output = openSync(to, "wx", source.mode & 0o777);
  const buffer = Buffer.allocUnsafe(1 << 20);
  try {
    for (let n; (n = readSync(input, buffer, 0, buffer.length, null)) > 0;) writeSync(output, buffer, 0, n);
    // Through the file we made, not its path: a restore's copy lands in an agent's folder, where a
    // link put at the path meanwhile must not have another file's times set.
    futimesSync(output, source.atime, source.mtime);
    fsyncSync(output);
  } finally {
    closeSync(input);
    closeSync(output);
  }
  const hash = sha256(to);
  if (lstatSync(to).size !== source.size || hash !== sha256(from)) {
    rmSync(to, { force: true });
    throw new MoveError(`copy of ${from} to ${to} did not verify; the original is untouched`);
  }
  fsyncDir(dirname(to));
  return hash;
}

/**
 * Moves a file to a path that must not exist yet: one rename on the same file system; across file
 * systems a verified copy, then the source is removed. The folder of the destination is created.
 * Returns the copy's SHA-256 when it was a copy (undefined for a rename).
 */
export function moveFile(from: string, to: string): { sha256?: string } {
  makeDirs(dirname(to));
  if (exists(to)) throw new MoveError(`${to} already exists; nothing was moved`);
  try {
    renameSync(from, to);
    return {};
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    // A session folder moves only as one rename: copying a tree and then deleting it in place is
    // exactly the recursive delete outside the trash that must never happen.
    if (lstatSync(from).isDirectory())
      throw new MoveError(
        `${from} is a session folder and ${dirname(to)} is on another file system; set deletion.quarantineDir to a folder on the same file system`,
      );
    const hash = copyVerified(from, to);
    unlinkSync(from);
    return { sha256: hash };
  }
}

/** The `.trashinfo` files of the home trash whose `Path=` is `originalPath`, with their files. */
export function findInSystemTrash(
  originalPath: string,
  env: NodeJS.ProcessEnv = process.env,
): Array<{ location: string; trashInfo: string; fileExists: boolean }> {
  const trashDir = homeTrashDir(env);
  const wanted = `Path=${encodeURI(originalPath)}`;
  let names: string[];
  try {
    names = readdirSync(join(trashDir, "info"));
  } catch {
    return [];
  }
  const found = [];
  for (const name of names) {
    if (!name.endsWith(".trashinfo")) continue;
    const trashInfo = join(trashDir, "info", name);
    let text: string;
    try {
      text = readFileSync(trashInfo, "utf8");
    } catch {
      continue;
    }
    if (!text.split("\n").includes(wanted)) continue;
    const location = join(trashDir, "files", name.slice(0, -".trashinfo".length));
    found.push({ location, trashInfo, fileExists: exists(location) });
  }
  return found;
}

/** One file or session folder for the desktop's trash. */
export interface TrashMove {
  path: string;
  sizeBytes: number;
  folder: boolean;
  /** Its name in the home trash, journaled before the move (see moveToHomeTrash). */
  name?: string;
}

export type TrashMoveOutcome = { location: string; trashInfo: string } | { error: Error };

/**
 * Moves files to the desktop's trash and proves each move happened: the source is gone, the
 * trashed copy is there with the same size, and its `.trashinfo` names the original path. What is
 * on the home trash's file system goes by our own move, under the name journaled for it, so that
 * after a crash nothing in the trash is ours without the journal saying so. The rest (a mount's own
 * trash folder) goes through the `trash` package — one call for all of them: each call re-reads the
 * mount table, which cost as much as the move itself. (The package reports success for paths it
 * did not move, treats paths as globs unless told not to, and fails a whole call for one bad path:
 * then each path is judged on its own from what is on disk.) Outcomes come in the order of `moves`.
 */
export async function moveToSystemTrash(
  moves: readonly TrashMove[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<TrashMoveOutcome[]> {
  const ours = moves.map((move) => move.name !== undefined && onHomeTrashDevice(move.path, env));
  const placed = new Map<number, { location: string; trashInfo: string } | Error>();
  moves.forEach((move, i) => {
    if (!ours[i]) return;
    try {
      placed.set(i, moveToHomeTrash(move.path, move.name!, env));
    } catch (error) {
      placed.set(i, error as Error);
    }
  });
  const others = moves.filter((_, i) => !ours[i]);
  let reported: unknown;
  if (others.length > 0)
    try {
      // Typed as void, but on Linux it resolves to [{ path, info }] in order; the search covers the rest.
      reported = await trash(
        others.map((m) => m.path),
        { glob: false },
      );
    } catch {
      reported = undefined;
    }
  let other = 0;
  return moves.map((move, i) => {
    let candidates: Array<{ location: string; trashInfo: string }>;
    let failure = "";
    if (ours[i]) {
      const mine = placed.get(i)!;
      candidates = mine instanceof Error ? [] : [mine];
      if (mine instanceof Error) failure = ` (${mine.message})`;
    } else {
      const entry = Array.isArray(reported)
        ? (reported[other] as { path?: unknown; info?: unknown } | undefined)
        : undefined;
      other++;
      candidates =
        typeof entry?.path === "string" && typeof entry.info === "string"
          ? [{ location: entry.path, trashInfo: entry.info }]
          : findInSystemTrash(move.path, env).filter((f) => f.fileExists);
    }
    if (exists(move.path))
      return { error: new MoveError(`the trash did not take ${move.path}${failure}; it is still in place`) };
    for (const candidate of candidates) {
      const info = readFileSync(candidate.trashInfo, "utf8");
      const trashed = currentFingerprint(candidate.location, move.folder);
      if (trashed?.size === move.sizeBytes && info.split("\n").includes(`Path=${encodeURI(move.path)}`))
        return candidate;
    }
    return { error: new MoveError(`${move.path} left its folder but no verified copy is in the trash`) };
  });
}

export { exists as pathExists, homeTrashDir };
