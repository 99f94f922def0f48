// Sessions that are folders (agentsh, sandbox workspaces): their size is the sum of the regular
// files inside, and their last change the newest mtime of anything inside — a folder's own mtime
// does not move when a file in it is appended to. Symlinks inside are counted as links, never followed.
import { type BigIntStats, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { ScanProblem } from "../../shared/scan-report.js";
import type { Fingerprint } from "../../shared/session-record.js";

export interface FolderFacts {
  /** The folder's device and inode, the files' total size, and the newest mtime inside (ns). */
  fingerprint: Fingerprint;
  newestMtimeMs: number;
  /** The folder's own birth time (0 where unknown), else its oldest mtime inside. */
  createdMs: number;
  files: number;
  /** Links inside, reported: never followed, never counted. */
  symlinks: string[];
  /** Folders inside we could not read. */
  unreadable: string[];
}

/**
 * Walks a session folder with one lstat per entry (the folder's own `stat`, when the caller has it,
 * is not asked again; `topNames` is given the names directly in it). Throws only if the folder
 * itself cannot be read.
 */
export function measureFolder(
  path: string,
  stat?: BigIntStats,
  topNames?: (names: readonly string[]) => void,
): FolderFacts {
  const root = stat ?? lstatSync(path, { bigint: true });
  if (!root.isDirectory()) throw Object.assign(new Error(`${path} is not a folder`), { code: "ENOTDIR" });
  let size = 0n;
  let newest = root.mtimeNs;
  let oldest = root.mtimeNs;
  let files = 0;
  const symlinks: string[] = [];
  const unreadable: string[] = [];
  const visit = (dir: string, stat: BigIntStats) => {
    if (stat.mtimeNs > newest) newest = stat.mtimeNs;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      unreadable.push(dir);
      return;
    }
    if (stat === root) topNames?.(names);
    for (const name of names) {
      // `join` normalises every path it makes (a tenth of a Claude Code scan's own time): `dir` is
      // normal already (the start below, then paths made here) and a listed name has no slash.
      const child = dir.endsWith("/") ? dir + name : `${dir}/${name}`;
      let entry: BigIntStats;
      try {
        entry = lstatSync(child, { bigint: true });
      } catch {
        continue; // removed while we looked
      }
      if (entry.isSymbolicLink()) symlinks.push(child);
      else if (entry.isDirectory()) visit(child, entry);
      else if (entry.isFile()) {
        size += entry.size;
        files += 1;
        if (entry.mtimeNs > newest) newest = entry.mtimeNs;
        if (entry.mtimeNs < oldest) oldest = entry.mtimeNs;
      }
    }
  };
  visit(join(path), root);
  const birth = Number(root.birthtimeNs / 1_000_000n);
  return {
    fingerprint: {
      dev: Number(root.dev),
      ino: Number(root.ino),
      size: Number(size),
      mtimeNs: newest.toString(),
    },
    newestMtimeMs: Number(newest / 1_000_000n),
    createdMs: birth > 0 ? birth : Number(oldest / 1_000_000n),
    files,
    symlinks,
    unreadable,
  };
}

/**
 * The folders directly in a store root, each a session if `recognise` gives what the store reads
 * from it (rather than the sentence that says why it is not one). Everything else at
 * the top — files, links, sockets, folders without the store's mark — is reported as a problem
 * (`not-a-session`, with a file's size) and is never walked into: a root pointed at the wrong
 * place (`~/code`) costs one listing, not a walk of everything below it.
 */
export function listSessionFolders<T>(
  root: string,
  kind: string,
  recognise: (folder: string) => { session: T } | { not: string },
): { folders: Array<{ path: string; session: T }>; problems: ScanProblem[] } {
  const folders: Array<{ path: string; session: T }> = [];
  const problems: ScanProblem[] = [];
  for (const name of readdirSync(root).sort()) {
    const path = join(root, name);
    let stat;
    try {
      stat = lstatSync(path);
    } catch {
      continue; // removed while we looked
    }
    const notASession = (what: string, bytes?: number) =>
      problems.push({
        code: "not-a-session",
        path,
        message: `${what}, not a session of this ${kind} store`,
        ...(bytes !== undefined ? { bytes } : {}),
      });
    if (stat.isSymbolicLink())
      problems.push({ code: "symlink", path, message: `symlink in a ${kind} store; not followed` });
    else if (stat.isFile()) notASession("a file", stat.size);
    else if (!stat.isDirectory())
      problems.push({ code: "not-regular", path, message: "not a regular file; skipped" });
    else {
      const verdict = recognise(path);
      if ("session" in verdict) folders.push({ path, session: verdict.session });
      else notASession(verdict.not);
    }
  }
  return { folders, problems };
}
