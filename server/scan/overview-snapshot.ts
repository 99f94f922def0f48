// The overview's snapshot: per pi session file, its identity and the few facts the `scan` table sums
// up, and nothing else — so that a warm `scan` decodes a handful of numbers and strings per
// unchanged file instead of its whole cache entry and record (see overview.ts). One file per cache
// file (`<cache>.overview`), three lines of JSON, the files by folder and each field a column, in
// the order the walk met them:
//   1. what every warm `scan` reads: names, identities, namespace, size, last use, warnings;
//   2. the session ids, read only when files changed or went (duplicate ids are found again then);
//   3. the creation times, read only for `--sort created`.
// At 100,000 sessions the file is ~17 MB; lines 2 and 3 are ~6 MB of it. Display only: nothing is
// ever deleted on what it says.
import { randomUUID } from "node:crypto";
import {
  closeSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname } from "node:path";
import type { SessionRecord } from "../../shared/session-record.js";
import { type CacheEntry, decodeCacheEntry, encodeCacheEntry } from "./scan-cache.js";
import { ensurePrivateDir } from "../fs/private-files.js";

/** Other versions' files are ignored (as if there were none). */
const SNAPSHOT_VERSION = 2;
const NEWLINE = 10;

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
  /** Its warnings before the steps over all sessions. */
  warnings: number;
  /** Another file (first by path) has its session id: the steps give it a warning more. */
  duplicate: boolean;
}

/** One folder's files: `names[i]` is `${path}/…`, and its other fields are the columns' `[i]`. */
export interface SnapshotFolder {
  path: string;
  /** Its place among the folders (of the columns on lines 2 and 3). */
  place: number;
  /** The device of its files (a file is on its folder's). */
  dev: number;
  names: string[];
  ino: number[];
  size: number[];
  mtime: number[];
  /** `lastUsed` less the mtime's whole milliseconds: 0, but where a double rounds the mtime up to the next one. */
  lastUsedOff: number[];
  /** Index into the snapshot's namespaces. */
  ns: number[];
  warnings: number[];
  duplicate: Array<0 | 1>;
  /** Where the walk is expected next (files come in the order they were met), and names to places when not. */
  cursor: number;
  byName?: Map<string, number>;
}

export const snapshotFileOf = (cacheFile: string) => `${cacheFile}.overview`;
/** Where the records the table showed last are kept (`readShown`). */
export const shownFileOf = (cacheFile: string) => `${cacheFile}.shown`;
/** The snapshot's journal (`readJournal`). */
export const journalFileOf = (cacheFile: string) => `${cacheFile}.changed`;

const isCount = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v >= 0;
const isString = (v: unknown) => typeof v === "string";
const allOf = (v: unknown, length: number, is: (x: unknown) => boolean) =>
  Array.isArray(v) && v.length === length && v.every(is);

/** The snapshot of a set of roots: its rows found by path and identity, folder by folder. */
export class Snapshot {
  private readonly folders = new Map<string, SnapshotFolder>();
  /** The folders by place. */
  readonly placed: readonly SnapshotFolder[];
  private ids: string[][] | undefined;
  private created: string[][] | undefined;
  /** How many files it has. */
  readonly rows: number;

  private constructor(
    /** Made anew with each snapshot written: a journal is of the snapshot whose id it names. */
    readonly id: string,
    readonly namespaces: readonly string[],
    folders: SnapshotFolder[],
    /** Lines 2 and 3, parsed when first needed. */
    private readonly lazy: [ids: Buffer, created: Buffer],
  ) {
    this.placed = folders;
    let rows = 0;
    for (const folder of folders) {
      this.folders.set(folder.path, folder);
      rows += folder.names.length;
    }
    this.rows = rows;
  }

  /** The snapshot in `file` when it is this version's and of these `roots`, else undefined. */
  static read(file: string, roots: readonly string[]): Snapshot | undefined {
    let bytes: Buffer;
    try {
      const fd = openSync(file, "r");
      try {
        bytes = Buffer.allocUnsafe(fstatSync(fd).size);
        if (readSync(fd, bytes, 0, bytes.length, 0) !== bytes.length) return undefined;
      } finally {
        closeSync(fd);
      }
    } catch {
      return undefined; // none: the full scan writes it
    }
    const first = bytes.indexOf(NEWLINE);
    const second = first === -1 ? -1 : bytes.indexOf(NEWLINE, first + 1);
    if (second === -1) return undefined;
    let value: { version?: unknown; id?: unknown; roots?: unknown; namespaces?: unknown; folders?: unknown };
    try {
      value = JSON.parse(bytes.toString("utf8", 0, first)) as typeof value;
    } catch {
      return undefined; // damaged: the full scan writes it again
    }
    const { namespaces } = value;
    if (
      value.version !== SNAPSHOT_VERSION ||
      typeof value.id !== "string" ||
      JSON.stringify(value.roots) !== JSON.stringify(roots) ||
      !Array.isArray(namespaces) ||
      !namespaces.every(isString) ||
      !Array.isArray(value.folders)
    )
      return undefined;
    const folders: SnapshotFolder[] = [];
    for (const f of value.folders as unknown[]) {
      const folder = folderOf(f, folders.length, namespaces.length);
      if (!folder) return undefined;
      folders.push(folder);
    }
    const lazy: [Buffer, Buffer] = [bytes.subarray(first + 1, second), bytes.subarray(second + 1)];
    return new Snapshot(value.id as string, namespaces as string[], folders, lazy);
  }

  /** The folder at `path`, if the snapshot has files there. */
  folder(path: string): SnapshotFolder | undefined {
    return this.folders.get(path);
  }

  /**
   * The row of the file `name` of `folder` when it is the very file the snapshot has there (same
   * device, inode, size and mtime, as lstat gives it: to a quarter of a microsecond), else undefined.
   * The walk meets a folder's files in the order the snapshot has them: a cursor, else a map.
   */
  find(
    folder: SnapshotFolder,
    name: string,
    dev: number,
    ino: number,
    size: number,
    mtime: number,
  ): number | undefined {
    let at = folder.cursor;
    if (folder.names[at] !== name) {
      folder.byName ??= new Map(folder.names.map((n, i) => [n, i]));
      const found = folder.byName.get(name);
      if (found === undefined) return undefined;
      at = found;
    }
    folder.cursor = at + 1;
    if (
      folder.mtime[at] !== mtime ||
      folder.size[at] !== size ||
      folder.ino[at] !== ino ||
      folder.dev !== dev
    )
      return undefined;
    return at;
  }

  /** Where the snapshot has the file at `path` (whatever it is now), if it has one. */
  locate(path: string): { place: number; at: number } | undefined {
    const cut = path.lastIndexOf("/");
    const folder = this.folders.get(path.slice(0, cut));
    if (!folder) return undefined;
    folder.byName ??= new Map(folder.names.map((n, i) => [n, i]));
    const at = folder.byName.get(path.slice(cut + 1));
    return at === undefined ? undefined : { place: folder.place, at };
  }

  /** Whether a row is marked as holding a duplicated id. */
  get anyDuplicate(): boolean {
    return this.placed.some((f) => f.duplicate.includes(1));
  }

  /** The `lastUsed` of a row `find` found. */
  static lastUsed(folder: SnapshotFolder, at: number): number {
    return Math.floor(folder.mtime[at]!) + folder.lastUsedOff[at]!;
  }

  /** The session id of a row (line 2, parsed on the first call); undefined when that line is damaged. */
  idOf(place: number, at: number): string | undefined {
    this.ids ??= this.column(this.lazy[0], (x) => typeof x === "string" && x.length > 0);
    return this.ids[place]?.[at];
  }

  /** The creation time of a row (line 3, parsed on the first call); undefined when that line is damaged. */
  createdAtOf(place: number, at: number): string | undefined {
    this.created ??= this.column(this.lazy[1], isString);
    return this.created[place]?.[at];
  }

  /** A lazy line: one array per folder, as long as its names, of values `is` accepts; else empty. */
  private column(bytes: Buffer, is: (x: unknown) => boolean): string[][] {
    try {
      const value = JSON.parse(bytes.toString("utf8")) as unknown;
      const folders = this.placed;
      if (Array.isArray(value) && value.length === folders.length)
        if (folders.every((f) => allOf(value[f.place], f.names.length, is))) return value as string[][];
    } catch {
      // damaged
    }
    return [];
  }
}

/** A folder of line 1, checked field by field (a damaged one makes the whole snapshot unusable). */
function folderOf(value: unknown, place: number, namespaces: number): SnapshotFolder | undefined {
  if (!Array.isArray(value) || value.length !== 10) return undefined;
  const [path, dev, names, ino, size, mtime, lastUsedOff, ns, warnings, duplicate] = value as unknown[];
  if (typeof path !== "string" || !isCount(dev) || !Array.isArray(names)) return undefined;
  const n = names.length;
  const columns = [ino, size, mtime, lastUsedOff, ns, warnings, duplicate];
  if (!columns.every((c) => Array.isArray(c) && c.length === n)) return undefined;
  const [I, S, M, L, N, W, D] = columns as unknown[][];
  // One pass over the files, every field checked (this runs for every file of every warm scan).
  for (let i = 0; i < n; i++) {
    const nsIndex = N![i];
    if (
      typeof names[i] !== "string" ||
      !isCount(I![i]) ||
      !isCount(S![i]) ||
      typeof M![i] !== "number" ||
      !Number.isInteger(L![i]) ||
      !isCount(nsIndex) ||
      (nsIndex as number) >= namespaces ||
      !isCount(W![i]) ||
      (D![i] !== 0 && D![i] !== 1)
    )
      return undefined;
  }
  return {
    path,
    place,
    dev,
    names,
    ino,
    size,
    mtime,
    lastUsedOff,
    ns,
    warnings,
    duplicate,
    cursor: 0,
  } as SnapshotFolder;
}

/**
 * Writes the snapshot of `rows` (any order; kept in it within each folder). A file whose device is
 * not its folder's first file's is left out (it is read each time: a bind mount of one file).
 */
export function writeSnapshot(file: string, roots: readonly string[], rows: Iterable<SnapshotRow>): void {
  const namespaces: string[] = [];
  const nsIndex = new Map<string, number>();
  type Building = Omit<SnapshotFolder, "cursor" | "byName"> & { ids: string[]; created: string[] };
  const folders = new Map<string, Building>();
  for (const row of rows) {
    const cut = row.path.lastIndexOf("/");
    const path = row.path.slice(0, cut);
    let folder = folders.get(path);
    if (!folder) {
      folder = {
        path,
        place: folders.size,
        dev: row.dev,
        names: [],
        ino: [],
        size: [],
        mtime: [],
        lastUsedOff: [],
        ns: [],
        warnings: [],
        duplicate: [],
        ids: [],
        created: [],
      };
      folders.set(path, folder);
    }
    if (row.dev !== folder.dev) continue;
    let ns = nsIndex.get(row.namespace);
    if (ns === undefined) nsIndex.set(row.namespace, (ns = namespaces.push(row.namespace) - 1));
    folder.names.push(row.path.slice(cut + 1));
    folder.ino.push(row.ino);
    folder.size.push(row.size);
    folder.mtime.push(row.mtime);
    folder.lastUsedOff.push(row.lastUsed - Math.floor(row.mtime));
    folder.ns.push(ns);
    folder.warnings.push(row.warnings);
    folder.duplicate.push(row.duplicate ? 1 : 0);
    folder.ids.push(row.id);
    folder.created.push(row.createdAt);
  }
  const all = [...folders.values()];
  const main = JSON.stringify({
    version: SNAPSHOT_VERSION,
    id: randomUUID(),
    roots,
    namespaces,
    folders: all.map((f) => [
      f.path,
      f.dev,
      f.names,
      f.ino,
      f.size,
      f.mtime,
      f.lastUsedOff,
      f.ns,
      f.warnings,
      f.duplicate,
    ]),
  });
  const ids = JSON.stringify(all.map((f) => f.ids));
  const created = JSON.stringify(all.map((f) => f.created));
  writeQuietly(file, `${main}\n${ids}\n${created}`);
}

/**
 * A file the table read since the snapshot was written: its row, and the cache entry it was read
 * into (its resume state: the next read of a growing session starts where this one ended).
 */
export interface JournalRow {
  row: SnapshotRow;
  entry: CacheEntry;
  /** The snapshot has a row at its path too (an older one). */
  inSnapshot: boolean;
}

/**
 * The snapshot's journal, by path: the rows of the files read since it was written — a session pi
 * is writing is read again on every warm `scan`, from where the last one ended, and the snapshot
 * (16 MB at 100,000 sessions) is not written again for it. Empty when none, or damaged.
 */
export function readJournal(file: string, snapshot: Snapshot): Map<string, JournalRow> {
  const rows = new Map<string, JournalRow>();
  try {
    const value = JSON.parse(readFileSync(file, "utf8")) as {
      version?: unknown;
      snapshot?: unknown;
      rows?: unknown;
    };
    // Of another snapshot (two scans at once may each have written one): not this one's changes.
    if (value.version !== SNAPSHOT_VERSION || value.snapshot !== snapshot.id || !Array.isArray(value.rows))
      return rows;
    for (const item of value.rows as unknown[]) {
      if (!Array.isArray(item) || item.length !== 3) continue;
      const [row, encoded, inSnapshot] = item as [unknown, unknown, unknown];
      const entry = decodeCacheEntry(encoded);
      if (entry && isRow(row) && typeof inSnapshot === "boolean")
        rows.set(row.path, { row, entry, inSnapshot });
    }
  } catch {
    // none, or damaged
  }
  return rows;
}

export function writeJournal(
  file: string,
  snapshot: Snapshot | undefined,
  rows: readonly JournalRow[],
): void {
  if (!snapshot || rows.length === 0) rmSync(file, { force: true });
  else
    writeQuietly(
      file,
      JSON.stringify({
        version: SNAPSHOT_VERSION,
        snapshot: snapshot.id,
        rows: rows.map((j) => [j.row, encodeCacheEntry(j.entry), j.inSnapshot]),
      }),
    );
}

function isRow(v: unknown): v is SnapshotRow {
  const r = v as Partial<Record<keyof SnapshotRow, unknown>> | null;
  return (
    typeof r?.path === "string" &&
    isCount(r.dev) &&
    isCount(r.ino) &&
    isCount(r.size) &&
    typeof r.mtime === "number" &&
    Number.isInteger(r.lastUsed) &&
    typeof r.id === "string" &&
    r.id.length > 0 &&
    typeof r.namespace === "string" &&
    typeof r.createdAt === "string" &&
    isCount(r.warnings) &&
    typeof r.duplicate === "boolean"
  );
}

/**
 * The records the table showed last, as the readers made them (before the steps over all sessions),
 * by path: a record is taken only where its file's identity is still the fingerprint's. Empty when
 * there are none, or the file is damaged (they are made again).
 */
export function readShown(file: string): Map<string, SessionRecord> {
  const records = new Map<string, SessionRecord>();
  try {
    const value = JSON.parse(readFileSync(file, "utf8")) as { version?: unknown; records?: unknown };
    if (value.version === SNAPSHOT_VERSION && Array.isArray(value.records))
      for (const record of value.records as unknown[])
        if (isKeptRecord(record)) records.set(record.path, record);
  } catch {
    // none, or damaged
  }
  return records;
}

/**
 * Whether a kept record has what the table and the identity check read, of their types (zod stays
 * off this path: loading it alone was ~10 ms). Our own file: anything else is damage.
 */
function isKeptRecord(v: unknown): v is SessionRecord {
  const r = v as Partial<Record<keyof SessionRecord, unknown>> | null;
  const f = r?.fingerprint as Partial<Record<string, unknown>> | undefined;
  return (
    typeof r?.path === "string" &&
    typeof r.id === "string" &&
    typeof r.namespace === "string" &&
    typeof r.createdAt === "string" &&
    typeof r.lastUsedAt === "string" &&
    typeof r.sizeBytes === "number" &&
    typeof r.messageCount === "number" &&
    (r.name === undefined || typeof r.name === "string") &&
    (r.firstMessage === undefined || typeof r.firstMessage === "string") &&
    (r.lastPrompt === undefined || typeof r.lastPrompt === "string") &&
    (r.archivedAt === undefined || typeof r.archivedAt === "string") &&
    (r.tags === undefined || (Array.isArray(r.tags) && r.tags.every(isString))) &&
    Array.isArray(r.warnings) &&
    r.warnings.every((w) => typeof (w as { code?: unknown } | null)?.code === "string") &&
    typeof r.store === "object" &&
    typeof f?.dev === "number" &&
    typeof f.ino === "number" &&
    typeof f.size === "number" &&
    typeof f.mtimeNs === "string" &&
    /^\d+$/.test(f.mtimeNs)
  );
}

export function writeShown(file: string, records: readonly SessionRecord[]): void {
  writeQuietly(file, JSON.stringify({ version: SNAPSHOT_VERSION, records }));
}

/**
 * Writes a file through a temp file renamed over it. Not synced, and a failure is let be: a file
 * lost only means the full way next time.
 */
function writeQuietly(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    ensurePrivateDir(dirname(file));
    writeFileSync(temp, text, { mode: 0o600 });
    renameSync(temp, file);
  } catch {
    rmSync(temp, { force: true });
  }
}
