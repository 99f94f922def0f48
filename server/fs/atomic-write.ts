// Replace a small state file so that a reader — or a crash — sees the old content or the new, never
// half of either: write a temporary file beside it, fsync it, rename it over, fsync the folder.
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import { makeDirs } from "./make-dirs.js";

/**
 * Writes `data` to `path` atomically; the file gets `mode` (default 0600: it is the user's
 * business), narrowed by the umask — or exactly, with `exactMode`, to keep the mode a file had.
 */
export function writeFileAtomic(path: string, data: string, mode = 0o600, { exactMode = false } = {}): void {
  const dir = dirname(path);
  makeDirs(dir);
  const temp = join(dir, `.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(temp, "wx", mode);
  try {
    if (exactMode) fchmodSync(fd, mode);
    writeSync(fd, data);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  fsyncDir(dir);
}

/** Makes a rename or a new file in `dir` durable. */
export function fsyncDir(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
