// A look into the facts store's database (server/state/facts-store.ts) from a test: which files it
// keeps facts of, straight from its tables with Node's own SQLite, not through the code under test.
interface Db {
  prepare(sql: string): { all(...params: unknown[]): unknown[] };
  close(): void;
}
const { DatabaseSync } = process.getBuiltinModule("node:sqlite") as unknown as {
  DatabaseSync: new (path: string, options?: { readOnly?: boolean }) => Db;
};

/** The paths `reader` keeps facts of in the database `file`, sorted. */
export function factsPaths(file: string, reader = "pi@1"): string[] {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const rows = db
      .prepare("SELECT folder, name FROM facts WHERE reader = ? ORDER BY folder, name")
      .all(reader) as Array<{ folder: string; name: string }>;
    return rows.map((r) => (r.name.startsWith("bytes:") ? r.name : `${r.folder}/${r.name}`)).sort();
  } finally {
    db.close();
  }
}

/** What `reader` keeps in the database `file`: path → the identity of the file as it was read. */
export function factsIdentities(
  file: string,
  reader = "pi@1",
): Map<string, { dev: number; ino: number; size: number; mtimeNs: string }> {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const rows = db
      .prepare("SELECT folder, name, dev, ino, size, mtime_ns FROM facts WHERE reader = ?")
      .all(reader) as Array<{
      folder: string;
      name: string;
      dev: number;
      ino: number;
      size: number;
      mtime_ns: string;
    }>;
    return new Map(
      rows.map((r) => [
        `${r.folder}/${r.name}`,
        { dev: r.dev, ino: r.ino, size: r.size, mtimeNs: r.mtime_ns },
      ]),
    );
  } finally {
    db.close();
  }
}

/** The `scan` table's rows in the database `file`: path → its fields. */
export function tableRows(file: string): Map<string, Record<string, unknown>> {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const rows = db.prepare("SELECT * FROM table_rows").all() as Array<Record<string, unknown>>;
    return new Map(rows.map((r) => [r.path as string, r]));
  } finally {
    db.close();
  }
}
