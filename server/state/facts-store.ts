// The facts store: one SQLite database (Node's own `node:sqlite`, nothing to download or build) in
// the state dir, holding for every file a scan read — of every store kind — its identity then (dev,
// inode, size, mtime ns) and what reading it taught us, so that a new process reads only the files
// that changed. Beside them, the `scan` table's rows of pi sessions (scan/overview.ts).
//
// A file's facts are kept by reader (a kind's name for what it reads, with a version: facts of
// another shape are never mistaken for these), folder and name. A scan looks them up a folder at a
// time (`FolderWindow`): the walks meet files folder by folder, and one range query per folder cost
// far less than a query per file or the whole store in memory. Whatever a row says is true of the
// file as it was when read, so rows are written as they come, in small transactions: a scan that
// fails midway leaves rows that are true, never a half-written file.
//
// Two processes at once (the CLI while `serve` runs) are safe: WAL, and a busy timeout that waits
// for the other's transaction. A damaged database, or a file that is not ours, is set aside (renamed
// `facts.db.damaged-<time>`) and made again, with a warning; a database we may only read is read.
import {
  closeSync,
  chmodSync,
  constants,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { ensurePrivateDir } from "../fs/private-files.js";
import type { FactsShelf, StoredFacts } from "../stores/facts-cache.js";

/** Bumped when the tables change: a database of another version is set aside and made again. */
const SCHEMA_VERSION = 1;
/** "SRFS" in the header's application id: a database without it is not ours. */
const APPLICATION_ID = 0x53524653;

/** The database file in a state folder (`statePaths().scanCache`). */
export const factsFileIn = (dir: string) => join(dir, "facts.db");

/**
 * The bound of the store: the rows of at most this many store roots (per reader); beyond it, the
 * rows of the roots scanned least recently go — which only means their next scan reads every file.
 */
export const FACTS_LIMITS = { roots: 32 };

// The part of node:sqlite this module uses (its types are not in @types/node 20).
interface Statement {
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
  run(...params: unknown[]): { changes: number | bigint };
  setReturnArrays?(on: boolean): void;
}
interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  close(): void;
}
interface SqliteModule {
  DatabaseSync: new (path: string, options?: { readOnly?: boolean; timeout?: number }) => Database;
}

/**
 * node:sqlite, or undefined where this Node has none (before 22.13 it needs a flag). Looked up, not
 * imported, so that such a Node still runs every scan — reading every file.
 */
function sqlite(): SqliteModule | undefined {
  try {
    return process.getBuiltinModule("node:sqlite") as SqliteModule | undefined;
  } catch {
    return undefined;
  }
}

/** How long a write waits for another process's transaction before it gives up (its rows are then not kept). */
const BUSY_MS = 5000;
/** Rows written per transaction: a failing scan keeps what it wrote, and no other process waits long. */
const BATCH = 1000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS facts (
  reader TEXT NOT NULL, folder TEXT NOT NULL, name TEXT NOT NULL,
  dev INTEGER NOT NULL, ino INTEGER NOT NULL, size INTEGER NOT NULL, mtime_ns TEXT NOT NULL,
  facts TEXT NOT NULL, resume TEXT,
  PRIMARY KEY (reader, folder, name)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS roots (
  reader TEXT NOT NULL, root TEXT NOT NULL, used_at INTEGER NOT NULL,
  PRIMARY KEY (reader, root)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS table_rows (
  root TEXT NOT NULL, path TEXT NOT NULL,
  dev INTEGER NOT NULL, ino INTEGER NOT NULL, size INTEGER NOT NULL, mtime_ms REAL NOT NULL,
  last_used REAL NOT NULL, id TEXT NOT NULL, namespace TEXT NOT NULL, created_at TEXT NOT NULL,
  warnings INTEGER NOT NULL, duplicate INTEGER NOT NULL, record TEXT,
  PRIMARY KEY (root, path)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS table_roots (root TEXT NOT NULL PRIMARY KEY) WITHOUT ROWID;
-- The table's sums read this index alone (4× faster than the rows), and its default order (least
-- recently used first) stops after the first rows of the other.
CREATE INDEX IF NOT EXISTS table_sums ON table_rows (root, namespace, size, last_used, warnings, duplicate);
CREATE INDEX IF NOT EXISTS table_lru ON table_rows (root, last_used, size DESC, path);
`;

/** Why a database was set aside, in a sentence, for the warning. */
const isDamage = (error: unknown) => {
  const message = (error as Error)?.message ?? "";
  return /not a database|malformed|corrupt|not ours|another version/i.test(message);
};

/** The last millisecond of year 9999: last uses are compared as milliseconds up to it (stores/pi/iso-time.ts). */
const LAST_MS = 253_402_300_799_999;

/** Warns once per process and file (a server opens the store on every look). */
const warned = new Set<string>();
function warn(file: string, message: string) {
  if (warned.has(file + message)) return;
  warned.add(file + message);
  process.emitWarning(message, { code: "SESSION_RETENTION_FACTS_STORE" });
}

/** Creates the file 0600 before SQLite does (it would make it 0644; its -wal and -shm files copy the mode). */
function makePrivateFile(file: string) {
  ensurePrivateDir(dirname(file));
  const fd = openSync(file, constants.O_CREAT | constants.O_RDWR | constants.O_NOFOLLOW, 0o600);
  closeSync(fd);
  if (statSync(file).mode & 0o077) chmodSync(file, 0o600);
}

/** Renames a damaged or foreign database aside (an older one set aside before is removed). */
function setAside(file: string, why: string) {
  const dir = dirname(file);
  const name = basename(file);
  for (const old of readdirSync(dir))
    if (old.startsWith(`${name}.damaged-`)) rmSync(join(dir, old), { force: true });
  const aside = `${file}.damaged-${Date.now()}`;
  renameSync(file, aside);
  chmodSync(aside, 0o600); // it holds what the store held, or who knows what
  for (const suffix of ["-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
  warn(
    file,
    `the scan cache ${file} ${why}: set aside as ${aside} and made again (the next scan reads every file)`,
  );
}

/** Removes the files of the scan caches before this store in `dir`: one per set of roots, and what lay beside each. */
export function removeOldCaches(dir: string) {
  try {
    for (const name of readdirSync(dir))
      if (/\.cache(\.overview|\.shown|\.changed)?$/.test(name) || /\.cache\.\d+\.\d+\.tmp$/.test(name))
        rmSync(join(dir, name), { force: true });
  } catch {
    // no folder: nothing old
  }
}

/** One row of the `scan` table's pi sessions (scan/overview.ts). */
export interface TableRow {
  path: string;
  dev: number;
  ino: number;
  size: number;
  /** As a plain lstat gives it (ms, fractional). */
  mtime: number;
  lastUsed: number;
  id: string;
  namespace: string;
  createdAt: string;
  warnings: number;
  duplicate: boolean;
}

export class FactsStore {
  private readonly statements = new Map<string, Statement>();
  /** Set once an error of the database was met: nothing more is asked of it. */
  private broken = false;

  private constructor(
    private readonly db: Database,
    readonly file: string,
    readonly readOnly: boolean,
  ) {}

  /**
   * The store in `file`, made if missing; undefined where it cannot be had (no node:sqlite, a
   * state dir we may neither write nor read): then every file is read. A damaged or foreign file
   * is set aside and made again; one we may only read is opened read-only (nothing is written).
   */
  static open(file: string): FactsStore | undefined {
    // Opened for each scan, closed after it: the last connection closed folds the write-ahead log
    // into the file, so between scans the store is that one file.
    const sql = sqlite();
    if (!sql) return undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      let db: Database | undefined;
      try {
        let readOnly = false;
        try {
          makePrivateFile(file);
          db = new sql.DatabaseSync(file, { timeout: BUSY_MS });
        } catch {
          readOnly = true;
          db = new sql.DatabaseSync(file, { readOnly: true, timeout: BUSY_MS });
        }
        const store = new FactsStore(db, file, readOnly);
        store.prepareSchema();
        return store;
      } catch (error) {
        db?.close();
        if (attempt === 0 && isDamage(error)) {
          try {
            setAside(
              file,
              (error as Error).message.includes("version")
                ? "is of another version"
                : "is damaged or not ours",
            );
            continue;
          } catch {
            return undefined;
          }
        }
        warn(file, `the scan cache ${file} cannot be used (${(error as Error).message}): every file is read`);
        return undefined;
      }
    }
    return undefined;
  }

  private prepareSchema() {
    const state = () => ({
      version: (this.db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version,
      app: (this.db.prepare("PRAGMA application_id").get() as { application_id: number }).application_id,
      tables: (this.db.prepare("SELECT count(*) AS n FROM sqlite_master").get() as { n: number }).n,
    });
    const fresh = (s: ReturnType<typeof state>) => s.tables === 0 && s.version === 0 && s.app === 0;
    let now = state();
    if (fresh(now)) {
      if (this.readOnly) throw new Error("cannot be made: the folder is read-only");
      // Under the write lock, looked at again: two processes may both find it empty (the CLI and
      // `serve` on a first run); the second waits for the first and then finds it made.
      let made = false;
      this.db.exec("BEGIN IMMEDIATE");
      try {
        if (fresh(state())) {
          this.db.exec(
            `${SCHEMA} PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = ${SCHEMA_VERSION};`,
          );
          made = true;
        }
        this.db.exec("COMMIT");
      } catch (error) {
        this.db.exec("ROLLBACK");
        throw error;
      }
      if (made) removeOldCaches(dirname(this.file));
      now = state();
    }
    if (now.app !== APPLICATION_ID) throw new Error("not ours");
    if (now.version !== SCHEMA_VERSION) throw new Error("another version");
    if (!this.readOnly)
      try {
        // Kept in the file once set; asked on every open, a no-op then.
        this.db.exec("PRAGMA journal_mode = WAL");
      } catch {
        // another process holds it in a mode only it can change now: this scan does without WAL
      }
    // No fsync, ever: a cache. A process that dies mid-write leaves the database sound (SQLite's own
    // journal, the WAL); only a crash of the machine itself could damage it, and a damaged one is set
    // aside and made again. With NORMAL, the checkpoints' fsyncs were a tenth of a cold scan.
    this.db.exec("PRAGMA synchronous = OFF");
  }

  /**
   * After an error of the database in the middle of a scan: a damaged one is set aside (the next
   * scan makes it again), any other (a full disk, a lock held past the timeout) is said; the scan
   * goes on without the store either way. A cache is a bonus: it never stops a scan.
   */
  abandon(error: unknown): void {
    if (this.broken) return;
    this.broken = true;
    this.statements.clear();
    try {
      this.db.close();
    } catch {
      // closed already
    }
    const message = (error as Error)?.message ?? String(error);
    if (isDamage(error) && !this.readOnly)
      try {
        setAside(this.file, "is damaged");
        return;
      } catch {
        // said below
      }
    warn(
      this.file,
      `the scan cache ${this.file} could not be used (${message}): the files it would have spared are read`,
    );
  }

  /** `run`, or `fallback` once the database failed (see `abandon`). */
  private guard<T>(fallback: T, run: () => T): T {
    if (this.broken) return fallback;
    try {
      return run();
    } catch (error) {
      this.abandon(error);
      return fallback;
    }
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }

  /**
   * Runs `write` in one transaction; a store we may only read, or a database busy past the
   * timeout, writes nothing (what it would have kept is read again next time), with a warning.
   */
  private write(write: () => void): void {
    if (this.readOnly || this.broken) return;
    try {
      this.db.exec("BEGIN IMMEDIATE");
    } catch (error) {
      if (isDamage(error)) return this.abandon(error);
      warn(this.file, `the scan cache ${this.file} was not updated (${(error as Error).message})`);
      return;
    }
    try {
      write();
      this.db.exec("COMMIT");
    } catch (error) {
      try {
        this.db.exec("ROLLBACK");
      } catch {
        // rolled back already
      }
      this.abandon(error);
    }
  }

  /** The facts `reader` keeps of the files of `folder`: name → stored facts. */
  folder(reader: string, folder: string): Map<string, StoredFacts> {
    return this.guard(new Map(), () => this.folderRows(reader, folder));
  }

  private folderRows(reader: string, folder: string): Map<string, StoredFacts> {
    const statement = this.statement(
      "SELECT name, dev, ino, size, mtime_ns, facts, resume FROM facts WHERE reader = ? AND folder = ?",
    );
    // Arrays, not objects: a row is made once per file on every warm scan.
    statement.setReturnArrays?.(true);
    const found = new Map<string, StoredFacts>();
    for (const row of statement.all(reader, folder)) {
      const [name, dev, ino, size, mtimeNs, facts, resume] = (
        Array.isArray(row) ? row : Object.values(row as object)
      ) as [string, number, number, number, string, string, string | null];
      const stored: StoredFacts = { identity: { dev, ino, size, mtimeNs }, facts };
      if (resume !== null) stored.resume = resume;
      found.set(name, stored);
    }
    return found;
  }

  /** Writes facts (folder, name, stored), a transaction per `BATCH`. */
  put(
    reader: string,
    rows: ReadonlyArray<readonly [folder: string, name: string, stored: StoredFacts]>,
  ): void {
    for (let from = 0; from < rows.length; from += BATCH)
      this.write(() => {
        const insert = this.statement(
          "INSERT OR REPLACE INTO facts (reader, folder, name, dev, ino, size, mtime_ns, facts, resume) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        );
        for (const [folder, name, s] of rows.slice(from, from + BATCH))
          insert.run(
            reader,
            folder,
            name,
            s.identity.dev,
            s.identity.ino,
            s.identity.size,
            s.identity.mtimeNs,
            s.facts,
            s.resume ?? null,
          );
      });
  }

  /**
   * After a scan of `root` that looked in `visited` folders: forgets the facts of `gone` (folder,
   * name) and of every folder under `root` it did not look in; marks the root used, and forgets
   * the roots used least recently beyond `FACTS_LIMITS`.
   */
  settle(
    reader: string,
    root: string,
    visited: Iterable<string>,
    gone: ReadonlyArray<readonly [folder: string, name: string]>,
    now = Date.now(),
  ): void {
    const folders = JSON.stringify([...visited]);
    const under = "reader = ? AND (folder = ? OR (folder > ? AND folder < ?))";
    const range = [reader, root, `${root}/`, `${root}0`] as const;
    // A scan that found what the store has writes nothing: no lock taken, the file untouched (the
    // root's time of use is refreshed at most once an hour).
    const idle = this.guard(false, () => {
      if (gone.length > 0) return false;
      const used = this.statement("SELECT used_at FROM roots WHERE reader = ? AND root = ?").get(
        reader,
        root,
      ) as { used_at: number } | undefined;
      if (!used || now - used.used_at > 3_600_000) return false;
      return (
        this.statement(
          `SELECT 1 FROM facts WHERE ${under} AND folder NOT IN (SELECT value FROM json_each(?)) LIMIT 1`,
        ).get(...range, folders) === undefined
      );
    });
    if (idle) return;
    this.write(() => {
      const remove = this.statement("DELETE FROM facts WHERE reader = ? AND folder = ? AND name = ?");
      for (const [folder, name] of gone) remove.run(reader, folder, name);
      this.statement(
        `DELETE FROM facts WHERE ${under} AND folder NOT IN (SELECT value FROM json_each(?))`,
      ).run(...range, folders);
      this.statement("INSERT OR REPLACE INTO roots (reader, root, used_at) VALUES (?, ?, ?)").run(
        reader,
        root,
        now,
      );
      const old = this.statement(
        "SELECT root FROM roots WHERE reader = ? ORDER BY used_at DESC LIMIT -1 OFFSET ?",
      ).all(reader, FACTS_LIMITS.roots) as Array<{ root: string }>;
      for (const { root: stale } of old) {
        this.statement(`DELETE FROM facts WHERE ${under}`).run(reader, stale, `${stale}/`, `${stale}0`);
        this.statement("DELETE FROM roots WHERE reader = ? AND root = ?").run(reader, stale);
      }
    });
  }

  /** What `cache info` shows: each reader's roots, their files kept and when a scan last used them. */
  info(): Array<{ reader: string; root: string; files: number; lastUsed: Date }> {
    return this.guard([], () => this.infoRows());
  }

  private infoRows(): Array<{ reader: string; root: string; files: number; lastUsed: Date }> {
    const rows = this.statement(
      `SELECT r.reader, r.root, r.used_at,
         (SELECT count(*) FROM facts f WHERE f.reader = r.reader AND (f.folder = r.root OR (f.folder > r.root || '/' AND f.folder < r.root || '0'))) AS files
       FROM roots r ORDER BY r.used_at DESC`,
    ).all() as Array<{ reader: string; root: string; used_at: number; files: number }>;
    return rows.map((r) => ({
      reader: r.reader,
      root: r.root,
      files: r.files,
      lastUsed: new Date(r.used_at),
    }));
  }

  // ---------------------------------------------------------------------------------------------
  // The `scan` table's rows (scan/overview.ts)
  // ---------------------------------------------------------------------------------------------

  /** The table's rows of `roots`, as columns (one array per field: no object per session). */
  tableRows(roots: readonly string[]): TableColumns {
    // A query per root: `root = ?` walks the primary key; an IN over several was 3× slower.
    const statement = this.statement("SELECT path, dev, ino, size, mtime_ms FROM table_rows WHERE root = ?");
    statement.setReturnArrays?.(true);
    const raws = roots.map((root) => statement.all(root));
    const columns = new TableColumns(raws.reduce((n, raw) => n + raw.length, 0));
    let i = 0;
    raws.forEach((raw, r) => {
      for (const row of raw)
        // An object where this Node has no setReturnArrays: its values are in the columns' order.
        columns.set(i++, r, Array.isArray(row) ? (row as unknown[]) : Object.values(row as object));
    });
    return columns;
  }

  /**
   * The rows that hold an id another row holds too, or are marked so: the duplicate check's
   * input, a few rows where every id is unique.
   */
  tableDuplicates(
    roots: readonly string[],
  ): Array<{ root: string; path: string; id: string; duplicate: boolean }> {
    const inRoots = `root IN (${roots.map(() => "?").join(", ")})`;
    const rows = this.statement(
      `SELECT root, path, id, duplicate FROM table_rows WHERE ${inRoots}
         AND (duplicate = 1 OR id IN (SELECT id FROM table_rows WHERE ${inRoots} GROUP BY id HAVING count(*) > 1))`,
    ).all(...roots, ...roots) as Array<{ root: string; path: string; id: string; duplicate: number }>;
    return rows.map((r) => ({ root: r.root, path: r.path, id: r.id, duplicate: r.duplicate === 1 }));
  }

  /** What a first growth point is backfilled from (shared/growth.ts): every row's creation, size and namespace. */
  tableGrowthRows(
    roots: readonly string[],
  ): Array<{ createdAt: string; sizeBytes: number; namespace: string }> {
    const statement = this.statement(
      "SELECT created_at AS createdAt, size AS sizeBytes, namespace FROM table_rows WHERE root = ?",
    );
    return roots.flatMap(
      (root) => statement.all(root) as Array<{ createdAt: string; sizeBytes: number; namespace: string }>,
    );
  }

  /**
   * The table's sums over `roots`, per root and namespace: sessions, bytes, the last use, the
   * sessions with a warning (or a duplicate id), and those with a last use outside years 1970–9999.
   */
  tableSums(roots: readonly string[]) {
    const statement = this.statement(
      `SELECT namespace, count(*) AS sessions, sum(size) AS bytes, max(last_used) AS lastUsed,
         sum(warnings > 0 OR duplicate = 1) AS warned, sum(last_used < 0 OR last_used > ${LAST_MS}) AS outside
       FROM table_rows WHERE root = ? GROUP BY namespace`,
    );
    return roots.map(
      (root) =>
        statement.all(root) as Array<{
          namespace: string;
          sessions: number;
          bytes: number;
          lastUsed: number;
          warned: number;
          outside: number;
        }>,
    );
  }

  /**
   * The first `top` rows of each of `roots` in `order` — the order `shared/sort.ts` sorts sessions
   * in (a last use as milliseconds, a path and a creation time as their strings) — with what makes
   * a record of each: its identity, and the record kept for it, if any. A query per root (`root =
   * ?`: the default order, least recently used first, then reads only its first rows of an index);
   * the caller merges them.
   */
  tableTop(roots: readonly string[], order: "lru" | "size" | "created", top: number) {
    const tieBreak = "last_used ASC, size DESC, path ASC";
    const by =
      order === "size"
        ? `size DESC, ${tieBreak}`
        : order === "created"
          ? `created_at ASC, ${tieBreak}`
          : tieBreak;
    const statement = this.statement(
      `SELECT root, path, dev, ino, size, mtime_ms, last_used, created_at, duplicate, record FROM table_rows
       WHERE root = ? ORDER BY ${by} LIMIT ?`,
    );
    return roots.flatMap(
      (root) =>
        statement.all(root, top) as Array<{
          root: string;
          path: string;
          dev: number;
          ino: number;
          size: number;
          mtime_ms: number;
          last_used: number;
          created_at: string;
          duplicate: number;
          record: string | null;
        }>,
    );
  }

  /**
   * Writes rows of the table, in one transaction: `rows` (root, row), `gone` (root, path) removed.
   * `whole`: the rows of `roots` are exactly `rows`. `records` (root, path, record as JSON): the
   * records kept for the next look (the ones shown), in place of those kept before.
   */
  putTableRows(
    roots: readonly string[],
    rows: Iterable<readonly [root: string, row: TableRow]>,
    options: {
      whole?: boolean;
      gone?: Iterable<readonly [root: string, path: string]>;
      records?: Iterable<readonly [root: string, path: string, record: string]>;
    } = {},
  ): void {
    this.write(() => {
      for (const root of roots) {
        if (options.whole) this.statement("DELETE FROM table_rows WHERE root = ?").run(root);
        // The roots whose rows are all there (none, for a root with no session).
        this.statement("INSERT OR IGNORE INTO table_roots (root) VALUES (?)").run(root);
      }
      const insert = this.statement(
        `INSERT OR REPLACE INTO table_rows
           (root, path, dev, ino, size, mtime_ms, last_used, id, namespace, created_at, warnings, duplicate, record)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
      );
      for (const [root, r] of rows)
        insert.run(
          root,
          r.path,
          r.dev,
          r.ino,
          r.size,
          r.mtime,
          r.lastUsed,
          r.id,
          r.namespace,
          r.createdAt,
          r.warnings,
          r.duplicate ? 1 : 0,
        );
      const remove = this.statement("DELETE FROM table_rows WHERE root = ? AND path = ?");
      for (const [root, path] of options.gone ?? []) remove.run(root, path);
      if (options.records) {
        const forget = this.statement(
          "UPDATE table_rows SET record = NULL WHERE root = ? AND record IS NOT NULL",
        );
        for (const root of roots) forget.run(root);
        const keep = this.statement("UPDATE table_rows SET record = ? WHERE root = ? AND path = ?");
        for (const [root, path, record] of options.records) keep.run(record, root, path);
      }
    });
  }

  /** Sets the duplicate marks of rows: (root, path, marked). */
  markDuplicates(marks: Iterable<readonly [root: string, path: string, marked: boolean]>): void {
    this.write(() => {
      const mark = this.statement("UPDATE table_rows SET duplicate = ? WHERE root = ? AND path = ?");
      for (const [root, path, on] of marks) mark.run(on ? 1 : 0, root, path);
    });
  }

  /** Whether the table has the rows of every one of `roots` (a full scan of each wrote them). */
  hasTable(roots: readonly string[]): boolean {
    return this.guard(false, () => {
      const known = this.statement("SELECT 1 FROM table_roots WHERE root = ?");
      return roots.every((root) => known.get(root) !== undefined);
    });
  }

  /** Removes every row: `cache clear`. */
  clear(): void {
    this.write(() =>
      this.db.exec("DELETE FROM facts; DELETE FROM roots; DELETE FROM table_rows; DELETE FROM table_roots;"),
    );
    if (this.broken) return;
    try {
      this.db.exec("VACUUM");
    } catch {
      // another process is reading: the space comes back later
    }
  }

  close(): void {
    if (this.broken) return;
    this.statements.clear();
    this.db.close();
  }
}

/** The table's rows as the walk compares them: path and identity, as columns (no object per session). */
export class TableColumns {
  readonly root: Int32Array;
  readonly paths: string[];
  readonly dev: Float64Array;
  readonly ino: Float64Array;
  readonly size: Float64Array;
  /** As a plain lstat gives it (ms, fractional). */
  readonly mtime: Float64Array;

  constructor(readonly length: number) {
    this.root = new Int32Array(length);
    this.paths = new Array<string>(length);
    this.dev = new Float64Array(length);
    this.ino = new Float64Array(length);
    this.size = new Float64Array(length);
    this.mtime = new Float64Array(length);
  }

  /** Row `i`, of root `root`: its fields in `tableRows`' order. */
  set(i: number, root: number, r: unknown[]) {
    this.root[i] = root;
    this.paths[i] = r[0] as string;
    this.dev[i] = r[1] as number;
    this.ino[i] = r[2] as number;
    this.size[i] = r[3] as number;
    this.mtime[i] = r[4] as number;
  }
}

/**
 * A reader's facts under one root, looked up a folder at a time: a folder's rows are loaded when a
 * file of it is first asked for, and let go when the scan asks in another folder. What the scan
 * read is written as it goes (`BATCH` at a time); `settle` forgets what it no longer found.
 */
export class FolderShelf implements FactsShelf {
  private folderKey: string | undefined;
  private rows = new Map<string, StoredFacts>();
  /** Per folder looked in: the names asked for (the rest of its rows are of files gone). */
  private readonly askedIn = new Map<string, Set<string>>();
  private asked = new Set<string>();
  /** Rows no one had asked for when the scan left their folder (it may come back to it). */
  private readonly unasked: Array<[string, string]> = [];
  private readonly forgotten: Array<[string, string]> = [];
  private pending: Array<[string, string, StoredFacts]> = [];

  constructor(
    private readonly store: FactsStore,
    readonly reader: string,
    readonly root: string,
  ) {}

  /** The folder and name a path is kept under. */
  static place(path: string): [folder: string, name: string] {
    const at = path.lastIndexOf("/");
    return [path.slice(0, at), path.slice(at + 1)];
  }

  get(path: string, folder?: string, name?: string): StoredFacts | undefined {
    if (folder === undefined) [folder, name] = FolderShelf.place(path);
    this.enter(folder);
    this.asked.add(name!);
    return this.rows.get(name!);
  }

  put(path: string, stored: StoredFacts, folder?: string, name?: string): void {
    if (folder === undefined) [folder, name] = FolderShelf.place(path);
    this.enter(folder);
    this.asked.add(name!);
    this.pending.push([folder, name!, stored]);
    if (this.pending.length >= BATCH) this.flush();
  }

  /** A file the scan found and needs no facts of (a server's rescan reuses its record): kept. */
  touch(folder: string, name: string): void {
    let asked = this.askedIn.get(folder);
    if (!asked) this.askedIn.set(folder, (asked = new Set()));
    asked.add(name);
  }

  /** A file the scan knows is gone: its facts go when the scan settles. */
  forget(folder: string, name: string): void {
    this.forgotten.push([folder, name]);
  }

  private enter(folder: string) {
    if (folder === this.folderKey) return;
    this.leave();
    this.folderKey = folder;
    this.rows = this.store.folder(this.reader, folder);
    let asked = this.askedIn.get(folder);
    if (!asked) this.askedIn.set(folder, (asked = new Set()));
    this.asked = asked;
  }

  /** The rows of the folder left that no one asked for: files gone (or no longer read). */
  private leave() {
    if (this.folderKey === undefined) return;
    for (const name of this.rows.keys()) if (!this.asked.has(name)) this.unasked.push([this.folderKey, name]);
    this.folderKey = undefined;
    this.rows = new Map();
  }

  /** Writes what was read since the last flush. */
  flush(): void {
    if (this.pending.length === 0) return;
    const rows = this.pending;
    this.pending = [];
    this.store.put(this.reader, rows);
  }

  /**
   * The scan of the root ended: writes what it read and, with `whole` (it found every file there
   * is, and asked for or touched each), forgets the rest under the root — files gone, folders it
   * found nothing in. Without, it only writes.
   */
  settle(whole: boolean): void {
    this.flush();
    if (!whole) return;
    this.leave();
    const gone = this.unasked.filter(([folder, name]) => !this.askedIn.get(folder)!.has(name));
    this.store.settle(this.reader, this.root, this.askedIn.keys(), [...gone, ...this.forgotten]);
  }

  /** The `FactsShelf` end of a scan: settles as a whole scan. */
  forgetUnasked(): void {
    this.settle(true);
  }
}
