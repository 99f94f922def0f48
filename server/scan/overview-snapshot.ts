// The overview's snapshot: per pi session file, its identity and the few facts the `scan` table sums
// up, and nothing else — so that a warm `scan` decodes a handful of numbers and strings per
// unchanged file instead of its whole cache entry and record (see overview.ts). One file per cache
// file (`<cache>.overview`), JSON: the files by folder, each field of them a column, in the order
// the walk met them. Display only: nothing is ever deleted on what it says.
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { ensurePrivateDir } from "../fs/private-files.js";
import { dirname } from "node:path";

/** Other versions' files are ignored (as if there were none). */
const SNAPSHOT_VERSION = 1;

/** A session file as the table sums it up: what it is (identity) and what it counts as. */
export interface SnapshotRow {
  path: string;
  dev: number;
  ino: number;
  size: number;
  /** The mtime as a plain lstat gives it (milliseconds, fractional: `lstatMs`), to compare. */
  mtime: number;
  /** Its `lastUsedAt` in milliseconds (the mtime to the millisecond, exact). */
  lastUsed: number;
  id: string;
  namespace: string;
  createdAt: string;
  /** Its warnings before the steps over all sessions (a duplicate id adds one). */
  warnings: number;
}

/** One folder's files: `names[i]` is `${path}/…`, and its other fields are the columns' `[i]`. */
interface SnapshotFolder {
  path: string;
  names: string[];
  dev: number[];
  ino: number[];
  size: number[];
  mtime: number[];
  lastUsed: number[];
  id: string[];
  /** Index into the snapshot's namespaces. */
  ns: number[];
  createdAt: string[];
  warnings: number[];
}

export const snapshotFileOf = (cacheFile: string) => `${cacheFile}.overview`;

/** The rows of the snapshot, looked up folder by folder in the walk's order (a cursor), else by name. */
export class Snapshot {
  private readonly folders = new Map<
    string,
    SnapshotFolder & { cursor: number; index?: Map<string, number> }
  >();
  private lastFolder: (SnapshotFolder & { cursor: number; index?: Map<string, number> }) | undefined;
  /** How many files it has. */
  readonly rows: number;

  private constructor(
    readonly roots: readonly string[],
    readonly namespaces: readonly string[],
    folders: SnapshotFolder[],
  ) {
    let rows = 0;
    for (const folder of folders) {
      this.folders.set(folder.path, { ...folder, cursor: 0 });
      rows += folder.names.length;
    }
    this.rows = rows;
  }

  /** The snapshot in `file` when it is this version's and of these `roots`, else undefined. */
  static read(file: string, roots: readonly string[]): Snapshot | undefined {
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(file, "utf8"));
    } catch {
      return undefined; // none, or damaged: the full scan writes it again
    }
    const v = value as { version?: unknown; roots?: unknown; namespaces?: unknown; folders?: unknown };
    if (v.version !== SNAPSHOT_VERSION || !Array.isArray(v.folders) || !Array.isArray(v.namespaces))
      return undefined;
    if (JSON.stringify(v.roots) !== JSON.stringify(roots)) return undefined;
    const folders: SnapshotFolder[] = [];
    for (const f of v.folders as unknown[]) {
      const folder = folderOf(f, v.namespaces.length);
      if (!folder) return undefined;
      folders.push(folder);
    }
    if (!v.namespaces.every((n) => typeof n === "string")) return undefined;
    return new Snapshot(roots, v.namespaces as string[], folders);
  }

  /**
   * The row of the file at `path` when it is the very file the snapshot has there (same device,
   * inode, size and mtime, as lstat gives it: to a quarter of a microsecond), else undefined.
   * `folderLength`: where its name starts.
   */
  match(
    path: string,
    folderLength: number,
    dev: number,
    ino: number,
    size: number,
    mtime: number,
  ): { folder: SnapshotFolder; at: number } | undefined {
    let folder = this.lastFolder;
    if (!folder || folder.path.length !== folderLength || !path.startsWith(folder.path)) {
      folder = this.folders.get(path.slice(0, folderLength));
      this.lastFolder = folder;
      if (!folder) return undefined;
    }
    const nameLength = path.length - folderLength - 1;
    let at = folder.cursor;
    const name = folder.names[at];
    if (name === undefined || name.length !== nameLength || !path.endsWith(name)) {
      folder.index ??= new Map(folder.names.map((n, i) => [n, i]));
      const found = folder.index.get(path.slice(folderLength + 1));
      if (found === undefined) return undefined;
      at = found;
    }
    folder.cursor = at + 1;
    if (
      folder.mtime[at] !== mtime ||
      folder.size[at] !== size ||
      folder.ino[at] !== ino ||
      folder.dev[at] !== dev
    )
      return undefined;
    return { folder, at };
  }
}

const isCount = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v >= 0;
const allOf = (v: unknown, length: number, is: (x: unknown) => boolean) =>
  Array.isArray(v) && v.length === length && v.every(is);
const isString = (x: unknown) => typeof x === "string";

/** A folder of the file, checked field by field (a damaged one makes the whole snapshot unusable). */
function folderOf(value: unknown, namespaces: number): SnapshotFolder | undefined {
  if (!Array.isArray(value) || value.length !== 11) return undefined;
  const [path, names, dev, ino, size, mtime, lastUsed, id, ns, createdAt, warnings] = value as unknown[];
  if (typeof path !== "string" || !Array.isArray(names) || !names.every(isString)) return undefined;
  const n = names.length;
  if (
    !allOf(dev, n, isCount) ||
    !allOf(ino, n, isCount) ||
    !allOf(size, n, isCount) ||
    !allOf(mtime, n, (x) => typeof x === "number") ||
    !allOf(lastUsed, n, (x) => Number.isInteger(x)) ||
    !allOf(id, n, (x) => typeof x === "string" && x.length > 0) ||
    !allOf(ns, n, (x) => isCount(x) && (x as number) < namespaces) ||
    !allOf(createdAt, n, isString) ||
    !allOf(warnings, n, isCount)
  )
    return undefined;
  return { path, names, dev, ino, size, mtime, lastUsed, id, ns, createdAt, warnings } as SnapshotFolder;
}

/**
 * Writes the snapshot of `rows` (any order; kept in it within each folder) for `roots`: to a temp
 * file renamed over the old one. Not synced: a snapshot lost in a crash only means the next `scan`
 * takes the full way.
 */
export function writeSnapshot(file: string, roots: readonly string[], rows: Iterable<SnapshotRow>): void {
  const namespaces: string[] = [];
  const nsIndex = new Map<string, number>();
  const folders = new Map<string, SnapshotFolder>();
  for (const row of rows) {
    const cut = row.path.lastIndexOf("/");
    const path = row.path.slice(0, cut);
    let folder = folders.get(path);
    if (!folder) {
      folder = {
        path,
        names: [],
        dev: [],
        ino: [],
        size: [],
        mtime: [],
        lastUsed: [],
        id: [],
        ns: [],
        createdAt: [],
        warnings: [],
      };
      folders.set(path, folder);
    }
    let ns = nsIndex.get(row.namespace);
    if (ns === undefined) nsIndex.set(row.namespace, (ns = namespaces.push(row.namespace) - 1));
    folder.names.push(row.path.slice(cut + 1));
    folder.dev.push(row.dev);
    folder.ino.push(row.ino);
    folder.size.push(row.size);
    folder.mtime.push(row.mtime);
    folder.lastUsed.push(row.lastUsed);
    folder.id.push(row.id);
    folder.ns.push(ns);
    folder.createdAt.push(row.createdAt);
    folder.warnings.push(row.warnings);
  }
  const text = JSON.stringify({
    version: SNAPSHOT_VERSION,
    roots,
    namespaces,
    folders: [...folders.values()].map((f) => [
      f.path,
      f.names,
      f.dev,
      f.ino,
      f.size,
      f.mtime,
      f.lastUsed,
      f.id,
      f.ns,
      f.createdAt,
      f.warnings,
    ]),
  });
  ensurePrivateDir(dirname(file));
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, text, { mode: 0o600 });
    renameSync(temp, file);
  } catch {
    rmSync(temp, { force: true }); // no snapshot: the next scan takes the full way
  }
}
