// Files only their owner may read: a folder 0700 and files 0600 written atomically. Our state holds
// every session's path, working directory and name, and the dashboard's token, so everything we
// write for ourselves goes through here (server/state/state-dir.ts says where).
import { chmodSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomic } from "./atomic-write.js";
import { makeDirs } from "./make-dirs.js";

/**
 * Makes a private folder (0700): new ones are created so, and one that exists with group or other
 * bits (made by an older version, or by hand) is tightened. It is ours, so nobody else has any
 * business in it. Returns the folder.
 */
export function ensurePrivateDir(folder: string): string {
  makeDirs(folder);
  if (statSync(folder).mode & 0o077) chmodSync(folder, 0o700);
  return folder;
}

/** Writes a file atomically, 0600, in a private folder (see `ensurePrivateDir`). */
export function writePrivateFile(file: string, data: string): void {
  ensurePrivateDir(dirname(file));
  writeFileAtomic(file, data, 0o600);
}
