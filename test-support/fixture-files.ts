// What the agents' fixture writers share: files and folders written with the times a test names,
// their sizes remembered (a bundle part's weight is an expectation worked out from what was
// written, never asked of the adapter), and folder times settled the way a real store's are.
import { lstatSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export class FixtureFiles {
  readonly #bytes = new Map<string, number>();
  readonly #emptyFolderTimes = new Map<string, number>();

  /** Writes a file with a modification time, and remembers its size. */
  file(path: string, content: string | Buffer, mtimeMs: number) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    utimesSync(path, new Date(mtimeMs), new Date(mtimeMs));
    this.#bytes.set(path, Buffer.byteLength(content));
    return path;
  }

  /** A folder, with the time it keeps while nothing newer is written inside. */
  folder(path: string, mtimeMs: number) {
    mkdirSync(path, { recursive: true });
    this.#emptyFolderTimes.set(path, mtimeMs);
    return path;
  }

  /** The size of the regular files at or below `path`: what a part of a bundle weighs. */
  weight(path: string) {
    let total = 0;
    for (const [file, size] of this.#bytes) if (file === path || file.startsWith(`${path}/`)) total += size;
    return total;
  }

  /**
   * Sets each folder's mtime to the newest of what is inside it, deepest first (links left out); a
   * folder with nothing inside and no time of its own gets `fallbackMs`.
   */
  settleFolderTimes(folder: string, fallbackMs: number): number {
    let newest = this.#emptyFolderTimes.get(folder) ?? 0;
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      const stat = lstatSync(path);
      if (stat.isDirectory()) newest = Math.max(newest, this.settleFolderTimes(path, fallbackMs));
      else if (stat.isFile()) newest = Math.max(newest, stat.mtimeMs);
    }
    if (newest === 0) newest = fallbackMs;
    utimesSync(folder, new Date(newest), new Date(newest));
    return newest;
  }
}

/** The newest mtime at or below `path` (links not followed). */
export function newestTime(path: string): number {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestTime(join(path, name))));
}

/** What a scan's record holds of the file at `path` as it is now: its device, inode and size. */
export function recordedNow(path: string) {
  const { dev, ino, size } = statSync(path);
  return { dev, ino, size };
}
