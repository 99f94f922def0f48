// Finds the files that may be pi sessions under a root, with one lstat each, never following a
// symlink. Only where pi puts sessions is looked into: the root itself (a custom session dir is
// flat) and its `--<cwd>--` folders. Everything else there — other files, other folders, links,
// sockets — is reported as not a session of this store, never walked into and never a candidate.
import { type Dirent, lstatSync, readdirSync, readlinkSync, statSync } from "node:fs";
import type { ScanProblem } from "../../shared/scan-report.js";
import { PI_CWD_FOLDER } from "../stores/session-place.js";
import { type FileIdentity, identityOf } from "../fs/file-identity.js";

export interface FoundFile {
  /** Path to hand to fs calls: a Buffer when some component is not valid UTF-8. */
  fsPath: string | Buffer;
  /** Path for people and for records (undecodable bytes shown as U+FFFD). */
  path: string;
  /** Name of the folder holding the file (pi's `--cwd--` folder, or the root's own name). */
  folder: string;
  identity: FileIdentity;
  /** 0 where the file system does not record a birth time. */
  birthtimeMs: number;
  nonUtf8Name: boolean;
}

/**
 * The files a walk found, kept in flat arrays and handed out one object at a time: a scan holds the
 * whole list until it has read the last file, and at 100,000 files an object (and an identity
 * object) per file was ~25 MB more in the old generation.
 */
export class FoundFiles {
  private readonly paths: string[] = [];
  private readonly folders: string[] = [];
  private readonly mtimeNs: string[] = [];
  /** dev, ino, size, mtimeMs and birthtimeMs of each file, one after the other. */
  private readonly numbers: number[] = [];
  /** Exact bytes of the paths that are not valid UTF-8, by index. */
  private readonly rawPaths = new Map<number, Buffer>();
  private readonly nonUtf8 = new Set<number>();
  /** Bytes of all the files found. */
  totalBytes = 0;

  get length(): number {
    return this.paths.length;
  }

  push(file: FoundFile): void {
    const index = this.paths.length;
    this.paths.push(file.path);
    this.folders.push(file.folder);
    this.mtimeNs.push(file.identity.mtimeNs);
    const { dev, ino, size, mtimeMs } = file.identity;
    this.numbers.push(dev, ino, size, mtimeMs, file.birthtimeMs);
    if (typeof file.fsPath !== "string") this.rawPaths.set(index, file.fsPath);
    if (file.nonUtf8Name) this.nonUtf8.add(index);
    this.totalBytes += size;
  }

  at(index: number): FoundFile {
    const n = index * 5;
    const path = this.paths[index]!;
    return {
      fsPath: this.rawPaths.get(index) ?? path,
      path,
      folder: this.folders[index]!,
      identity: {
        dev: this.numbers[n]!,
        ino: this.numbers[n + 1]!,
        size: this.numbers[n + 2]!,
        mtimeNs: this.mtimeNs[index]!,
        mtimeMs: this.numbers[n + 3]!,
      },
      birthtimeMs: this.numbers[n + 4]!,
      nonUtf8Name: this.nonUtf8.has(index),
    };
  }

  *[Symbol.iterator](): Generator<FoundFile> {
    for (let index = 0; index < this.length; index++) yield this.at(index);
  }
}

export interface WalkResult {
  files: FoundFiles;
  problems: ScanProblem[];
}

const SEP = Buffer.from("/");

function describeLink(path: string | Buffer): string {
  let target = "?";
  try {
    target = readlinkSync(path, "utf8");
  } catch {}
  try {
    statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") return `symlink loop (→ ${target}); not followed`;
    return `dangling symlink (→ ${target}); not followed`;
  }
  return `symlink (→ ${target}); not followed`;
}

interface Entry {
  name: string;
  fsPath: string | Buffer;
  dirent: Dirent;
  nonUtf8: boolean;
}

/**
 * Lists a folder: its entries, or (the usual case: a folder given by a string, every name valid
 * UTF-8) just the dirents, whose paths the walk makes itself — an object per entry less. Names that
 * are not valid UTF-8 get their exact bytes back from a Buffer listing.
 */
function listFolder(fsPath: string | Buffer): Dirent[] | Entry[] {
  const dirents = readdirSync(fsPath, { withFileTypes: true });
  if (typeof fsPath === "string" && !dirents.some((d) => d.name.includes("\uFFFD"))) return dirents;
  const base = typeof fsPath === "string" ? Buffer.from(fsPath) : fsPath;
  const raw = readdirSync(fsPath, { withFileTypes: true, encoding: "buffer" });
  return raw.map((dirent) => {
    const bytes = dirent.name as unknown as Buffer;
    const name = bytes.toString("utf8");
    const nonUtf8 = !Buffer.from(name, "utf8").equals(bytes);
    const childFsPath =
      !nonUtf8 && typeof fsPath === "string" ? `${fsPath}/${name}` : Buffer.concat([base, SEP, bytes]);
    return { name, fsPath: childFsPath, dirent: dirent as unknown as Dirent, nonUtf8 };
  });
}

/** lstat's options, made once: it runs for every file. */
const BIGINT = { bigint: true } as const;

/** Files by path, with the strings a walk may list them with (see `WalkOptions.known`). */
export type KnownFiles = ReadonlyMap<string, { path: string; fingerprint: { mtimeNs: string } }>;

export interface WalkOptions {
  /**
   * Files a walk may already know (a server's last look): a file found here is listed with the
   * strings it has there when they are equal. A server rescans every few seconds, and new copies of
   * 100,000 paths and mtimes were ~17 MB held until the scan's end.
   */
  known?: KnownFiles;
  /** Called after each entry; the walk waits for the promise it returns (a turn for the event loop, when due). */
  pause?: () => Promise<void> | undefined;
}

/**
 * Walks `root` (an absolute, real path) and returns every `*.jsonl` regular file directly in it or
 * in one of its `--<cwd>--` folders: pi's default store has one such folder per cwd, a custom
 * session dir is flat. Whether each is a pi session is decided once it is read (its header or its
 * name); everything else is a problem of code `not-a-session` (with its size when it is a file).
 */
export async function walkPiRoot(root: string, { known, pause }: WalkOptions = {}): Promise<WalkResult> {
  const files = new FoundFiles();
  const problems: ScanProblem[] = [];
  const notASession = (path: string, what: string, bytes?: number) =>
    problems.push({
      code: "not-a-session",
      path,
      message: `${what}, not a session of this pi store`,
      ...(bytes !== undefined ? { bytes } : {}),
    });
  const stack: Array<{
    fsPath: string | Buffer;
    path: string;
    name: string;
    nonUtf8: boolean;
    top: boolean;
  }> = [{ fsPath: root, path: root, name: root.split("/").at(-1) ?? root, nonUtf8: false, top: true }];
  while (stack.length > 0) {
    const folder = stack.pop()!;
    let entries: Dirent[] | Entry[];
    try {
      entries = listFolder(folder.fsPath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      problems.push({
        code: code === "EACCES" || code === "EPERM" ? "permission-denied" : "unreadable",
        path: folder.path,
        message: `folder skipped: ${(error as Error).message}`,
      });
      continue;
    }
    for (let i = 0; i < entries.length; i++) {
      const turn = pause?.();
      if (turn) await turn; // not `await undefined`: that is a microtask turn per file all the same
      const listed = entries[i]!;
      // A dirent (its path made here) or an entry of a folder with names that are not UTF-8.
      const isEntry = "dirent" in listed;
      const dirent = isEntry ? listed.dirent : listed;
      const name = listed.name;
      const fsPath = isEntry ? listed.fsPath : `${folder.fsPath as string}/${name}`;
      // Same string as the fs path when it is valid UTF-8: 100,000 paths are worth not keeping twice.
      const path = typeof fsPath === "string" ? fsPath : `${folder.path}/${name}`;
      const nonUtf8 = folder.nonUtf8 || (isEntry && listed.nonUtf8);
      if (dirent.isFile()) {
        try {
          const stat = lstatSync(fsPath, BIGINT);
          if (!stat.isFile()) {
            problems.push({
              code: "not-regular",
              path,
              message: "changed into a non-regular file during the scan; skipped",
            });
            continue;
          }
          if (!name.endsWith(".jsonl")) {
            notASession(path, "not a .jsonl file", Number(stat.size));
            continue;
          }
          const identity = identityOf(stat);
          const before = typeof fsPath === "string" ? known?.get(path) : undefined;
          if (before?.fingerprint.mtimeNs === identity.mtimeNs) identity.mtimeNs = before.fingerprint.mtimeNs;
          files.push({
            fsPath: before?.path ?? fsPath,
            path: before?.path ?? path,
            folder: folder.name,
            identity,
            birthtimeMs: Number(stat.birthtimeNs / 1_000_000n),
            nonUtf8Name: nonUtf8,
          });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // deleted while we looked
          problems.push({ code: "unreadable", path, message: (error as Error).message });
        }
      } else if (dirent.isSymbolicLink()) {
        problems.push({ code: "symlink", path, message: describeLink(fsPath) });
      } else if (dirent.isDirectory()) {
        if (folder.top && PI_CWD_FOLDER.test(name)) stack.push({ fsPath, path, name, nonUtf8, top: false });
        else
          notASession(
            path,
            folder.top
              ? "a folder pi does not make (not looked into)"
              : "a folder inside a cwd folder (not looked into)",
          );
      } else {
        problems.push({ code: "not-regular", path, message: "not a regular file; skipped" });
      }
    }
  }
  return { files, problems };
}
