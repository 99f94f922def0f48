// Finds the files that may be pi sessions under a root, with one lstat each, never following a
// symlink. Only where pi puts sessions is looked into: the root itself (a custom session dir is
// flat) and its `--<cwd>--` folders. Everything else there — other files, other folders, links,
// sockets — is reported as not a session of this store, never walked into and never a candidate.
import { type Dirent, existsSync, lstatSync, readdirSync, readlinkSync, type Stats, statSync } from "node:fs";
import { dirname } from "node:path";
import type { ScanProblem } from "../../../shared/scan-report.js";
import { PI_CWD_FOLDER } from "./locations.js";
import { type FileIdentity, identityOf } from "../../fs/file-identity.js";

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
    const { dev, ino, size, mtimeNs, mtimeMs } = file.identity;
    this.add(
      file.fsPath,
      file.path,
      file.folder,
      dev,
      ino,
      size,
      mtimeNs,
      mtimeMs,
      file.birthtimeMs,
      file.nonUtf8Name,
    );
  }

  /** `push` of a file's fields, without an object to hold them (a walk adds one per file). */
  add(
    fsPath: string | Buffer,
    path: string,
    folder: string,
    dev: number,
    ino: number,
    size: number,
    mtimeNs: string,
    mtimeMs: number,
    birthtimeMs: number,
    nonUtf8Name: boolean,
  ): void {
    const index = this.paths.length;
    this.paths.push(path);
    this.folders.push(folder);
    this.mtimeNs.push(mtimeNs);
    this.numbers.push(dev, ino, size, mtimeMs, birthtimeMs);
    if (typeof fsPath !== "string") this.rawPaths.set(index, fsPath);
    if (nonUtf8Name) this.nonUtf8.add(index);
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
export interface KnownFiles {
  get(path: string): { path: string; fingerprint: { mtimeNs: string } } | undefined;
}

export interface WalkOptions {
  /**
   * Files a walk may already know (a server's last look): a file found here is listed with the
   * strings it has there when they are equal. A server rescans every few seconds, and new copies of
   * 100,000 paths and mtimes were ~17 MB held until the scan's end.
   */
  known?: KnownFiles;
  /** Called after each entry; the walk waits for the promise it returns (a turn for the event loop, when due). */
  pause?: () => Promise<void> | undefined;
  /**
   * A look that compares files with what it knew (scan/overview.ts): each `.jsonl` regular file is
   * lstat'ed without nanoseconds (a BigInt stat costs a third more) and handed to `compare` first,
   * which takes it (true) or not; only the files it does not take are listed, their identity's
   * `mtimeNs` empty and `mtimeMs` the lstat's own, fractional. Never for records.
   */
  compare?: Compare;
}

/** See `WalkOptions.compare`: `folder` is the same string for every file of a folder. */
export type Compare = (folder: string, name: string, path: string, stat: Stats) => boolean;

/** A folder the walk lists: the root (`top`) or one of its `--<cwd>--` folders. */
interface Folder {
  fsPath: string | Buffer;
  path: string;
  name: string;
  nonUtf8: boolean;
  top: boolean;
}

/** What an entry's type is known by: the listing's Dirent, or an lstat of the one path. */
type Kind = Pick<Dirent, "isSymbolicLink" | "isDirectory" | "isFile">;

/** The walk's state: what it found so far, and how it goes on. */
interface Walk {
  files: FoundFiles;
  compare: Compare | undefined;
  problems: ScanProblem[];
  known: KnownFiles | undefined;
  /** Where a `--<cwd>--` folder found in the root goes: listed now, or left to the caller. */
  onCwdFolder: (folder: Folder) => void;
}

const notASession = (problems: ScanProblem[], path: string, what: string, bytes?: number) =>
  problems.push({
    code: "not-a-session",
    path,
    message: `${what}, not a session of this pi store`,
    ...(bytes !== undefined ? { bytes } : {}),
  });

/**
 * Judges one entry of `folder` as the walk does: a pi session candidate (listed with its identity),
 * a `--<cwd>--` folder of the root (handed to `walk.onCwdFolder`), or a problem. Plain arguments,
 * no object: this runs for every file of every scan.
 */
function judgeEntry(
  walk: Walk,
  folder: Folder,
  name: string,
  fsPath: string | Buffer,
  /** The entry's own name is not valid UTF-8. */
  ownNonUtf8: boolean,
  kind: Kind,
): void {
  const { problems } = walk;
  // Same string as the fs path when it is valid UTF-8: 100,000 paths are worth not keeping twice.
  const path = typeof fsPath === "string" ? fsPath : `${folder.path}/${name}`;
  const nonUtf8 = folder.nonUtf8 || ownNonUtf8;
  if (kind.isFile()) {
    try {
      if (walk.compare) {
        const stat = lstatSync(fsPath);
        if (stat.isFile() && name.endsWith(".jsonl")) {
          const { dev, ino, size, mtimeMs, birthtimeMs } = stat;
          walk.files.add(fsPath, path, folder.name, dev, ino, size, "", mtimeMs, birthtimeMs, nonUtf8);
          return;
        }
      }
      const stat = lstatSync(fsPath, BIGINT);
      if (!stat.isFile()) {
        problems.push({
          code: "not-regular",
          path,
          message: "changed into a non-regular file during the scan; skipped",
        });
        return;
      }
      if (!name.endsWith(".jsonl")) {
        notASession(problems, path, "not a .jsonl file", Number(stat.size));
        return;
      }
      const identity = identityOf(stat);
      const before = typeof fsPath === "string" ? walk.known?.get(path) : undefined;
      if (before?.fingerprint.mtimeNs === identity.mtimeNs) identity.mtimeNs = before.fingerprint.mtimeNs;
      walk.files.push({
        fsPath: before?.path ?? fsPath,
        path: before?.path ?? path,
        folder: folder.name,
        identity,
        birthtimeMs: Number(stat.birthtimeNs / 1_000_000n),
        nonUtf8Name: nonUtf8,
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return; // deleted while we looked
      problems.push({ code: "unreadable", path, message: (error as Error).message });
    }
  } else if (kind.isSymbolicLink()) {
    problems.push({ code: "symlink", path, message: describeLink(fsPath) });
  } else if (kind.isDirectory()) {
    if (folder.top && PI_CWD_FOLDER.test(name)) walk.onCwdFolder({ fsPath, path, name, nonUtf8, top: false });
    else
      notASession(
        problems,
        path,
        folder.top
          ? "a folder pi does not make (not looked into)"
          : "a folder inside a cwd folder (not looked into)",
      );
  } else {
    problems.push({ code: "not-regular", path, message: "not a regular file; skipped" });
  }
}

/** Lists `folder` and judges each entry; false (and a problem) when it cannot be listed. */
async function listAndJudge(walk: Walk, folder: Folder, pause: WalkOptions["pause"]): Promise<boolean> {
  if (walk.compare && typeof folder.fsPath === "string" && compareFolder(walk, walk.compare, folder))
    return true;
  let entries: Dirent[] | Entry[];
  try {
    entries = listFolder(folder.fsPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    walk.problems.push({
      code: code === "EACCES" || code === "EPERM" ? "permission-denied" : "unreadable",
      path: folder.path,
      message: `folder skipped: ${(error as Error).message}`,
    });
    return false;
  }
  for (let i = 0; i < entries.length; i++) {
    const turn = pause?.();
    if (turn) await turn; // not `await undefined`: that is a microtask turn per file all the same
    // A dirent (its path made here) or an entry of a folder with names that are not UTF-8.
    const listed = entries[i]!;
    if ("dirent" in listed)
      judgeEntry(walk, folder, listed.name, listed.fsPath, listed.nonUtf8, listed.dirent);
    else judgeEntry(walk, folder, listed.name, `${folder.fsPath as string}/${listed.name}`, false, listed);
  }
  return true;
}

/**
 * Lists a folder given by a string for `walk.compare`, as `listAndJudge` would but lighter: names
 * only, one plain lstat each, a `.jsonl` file offered to `compare` and listed only if it does not
 * take it, anything else judged as always. False (nothing done) when a name is not valid UTF-8 or
 * the folder cannot be listed: `listAndJudge` does it then.
 */
function compareFolder(walk: Walk, compare: Compare, folder: Folder): boolean {
  const dir = folder.fsPath as string;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return false;
  }
  if (names.some((name) => name.includes("\uFFFD"))) return false;
  for (const name of names) {
    const path = `${dir}/${name}`;
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat === undefined) continue; // deleted while we looked
    if (stat.isFile() && name.endsWith(".jsonl")) {
      if (compare(dir, name, path, stat)) continue;
      const { dev, ino, size, mtimeMs, birthtimeMs } = stat;
      walk.files.add(path, path, folder.name, dev, ino, size, "", mtimeMs, birthtimeMs, folder.nonUtf8);
    } else judgeEntry(walk, folder, name, path, false, stat);
  }
  return true;
}

const rootFolder = (root: string): Folder => ({
  fsPath: root,
  path: root,
  name: root.split("/").at(-1) ?? root,
  nonUtf8: false,
  top: true,
});

/**
 * Walks `root` (an absolute, real path) and returns every `*.jsonl` regular file directly in it or
 * in one of its `--<cwd>--` folders: pi's default store has one such folder per cwd, a custom
 * session dir is flat. Whether each is a pi session is decided once it is read (its header or its
 * name); everything else is a problem of code `not-a-session` (with its size when it is a file).
 */
export async function walkPiRoot(
  root: string,
  { known, pause, compare }: WalkOptions = {},
): Promise<WalkResult> {
  const stack: Folder[] = [];
  const walk: Walk = {
    files: new FoundFiles(),
    compare,
    problems: [],
    known,
    onCwdFolder: (f) => stack.push(f),
  };
  stack.push(rootFolder(root));
  while (stack.length > 0) await listAndJudge(walk, stack.pop()!, pause);
  return { files: walk.files, problems: walk.problems };
}

/**
 * What a walk of only the changed places found (`walkPiChanges`). Whatever the last walk found is
 * replaced where this walk looked — in `listed` folders (what they hold, and a failure to list
 * them), at `judged` paths, and in `gone` folders (no longer `--<cwd>--` folders) — and stays
 * everywhere else.
 */
export interface ChangesWalk extends WalkResult {
  /** The whole root was walked again: nothing of the last walk stays. */
  whole: boolean;
  listed: ReadonlySet<string>;
  judged: ReadonlySet<string>;
  gone: ReadonlySet<string>;
}

/**
 * Walks only where `changed` paths (a watcher's, under `root`) say something moved, given the
 * `--<cwd>--` folders the last walk listed (`knownFolders`): a changed file is judged alone (one
 * lstat), a new or changed folder is listed, and the root is listed (without the folders it
 * already knew) when its own entries changed. The root itself, or a folder above it, changed: the
 * whole root is walked again. Names that are not valid UTF-8 come from listings only (a watcher
 * names them lossily): a change there lists the root, and every folder so named.
 */
export async function walkPiChanges(
  root: string,
  changed: Iterable<string>,
  knownFolders: ReadonlySet<string>,
  { known, pause }: WalkOptions = {},
): Promise<ChangesWalk> {
  const listed = new Set<string>();
  const judged = new Set<string>();
  const gone = new Set<string>();
  const wholeRoot = async (): Promise<ChangesWalk> => ({
    ...(await walkPiRoot(root, { known, ...(pause ? { pause } : {}) })),
    whole: true,
    listed,
    judged,
    gone,
  });
  /** Folders to list (the root among them when its own listing changed), and paths to judge alone. */
  const toList = new Set<string>();
  const toJudge = new Set<string>();
  let lossyChanged = false;
  const prefix = `${root}/`;
  for (const path of changed) {
    if (path === root || root.startsWith(`${path}/`)) return wholeRoot();
    if (!path.startsWith(prefix)) continue;
    const [first, second] = path.slice(prefix.length).split("/", 2) as [string, string | undefined];
    const top = prefix + first;
    const inKnownFolder = second !== undefined && knownFolders.has(top);
    // A name that is not valid UTF-8 reaches us lossily: only a listing (of the root, which gives
    // such folders their exact bytes) finds what it names.
    if (path.includes("\uFFFD")) {
      toList.add(root);
      lossyChanged = true;
    } else toJudge.add(inKnownFolder ? `${top}/${second}` : top);
  }

  const folders = new Map<string, Folder>();
  for (const path of toList) if (path !== root) folders.set(path, folderAt(root, path));
  const walk: Walk = {
    files: new FoundFiles(),
    compare: undefined,
    problems: [],
    known,
    onCwdFolder: (folder) => {
      // A folder the last walk listed, and nothing in it changed, keeps what it held.
      const lossy = lossyChanged && folder.nonUtf8;
      if (knownFolders.has(folder.path) && !toJudge.has(folder.path) && !toList.has(folder.path) && !lossy)
        return;
      folders.set(folder.path, folder);
    },
  };
  const rootAsFolder = rootFolder(root);
  /** Judges one path alone (one lstat), as the walk would judge it in `parent`. */
  const judge = (path: string, parent: Folder) => {
    judged.add(path);
    let kind: Kind;
    try {
      kind = lstatSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT")
        walk.problems.push({ code: "unreadable", path, message: (error as Error).message });
      else if (!parent.top && !existsSync(parent.path)) gone.add(parent.path); // its folder went too
      if (knownFolders.has(path)) gone.add(path);
      return;
    }
    const name = path.slice(path.lastIndexOf("/") + 1);
    judgeEntry(walk, parent, name, path, false, kind);
    // A known folder that is no longer one of pi's folders holds nothing of the store any more.
    if (knownFolders.has(path) && !(kind.isDirectory() && PI_CWD_FOLDER.test(name))) gone.add(path);
  };

  // The root's own entries first: they decide which folders are new, changed or gone.
  if (toList.has(root)) {
    const present = new Set<string>();
    const onCwdFolder = walk.onCwdFolder;
    walk.onCwdFolder = (folder) => {
      present.add(folder.path);
      onCwdFolder(folder);
    };
    // The root cannot be listed any more (gone, no permission): the whole walk says so.
    if (!(await listAndJudge(walk, rootAsFolder, pause))) return wholeRoot();
    walk.onCwdFolder = onCwdFolder;
    listed.add(root);
    for (const folder of knownFolders) if (!present.has(folder)) gone.add(folder);
  } else for (const path of toJudge) if (dirname(path) === root) judge(path, rootAsFolder);
  // Then the files of folders that are not listed anew, and last the folders.
  for (const path of toJudge) {
    const parent = dirname(path);
    if (parent !== root && !folders.has(parent) && !gone.has(parent)) judge(path, folderAt(root, parent));
  }
  for (const folder of folders.values()) {
    if (gone.has(folder.path)) continue;
    listed.add(folder.path);
    await listAndJudge(walk, folder, pause);
  }
  return { files: walk.files, problems: walk.problems, whole: false, listed, judged, gone };
}

/** A `--<cwd>--` folder of `root`, by its (UTF-8) path. */
const folderAt = (root: string, path: string): Folder => ({
  fsPath: path,
  path,
  name: path.slice(root.length + 1),
  nonUtf8: false,
  top: false,
});
