// `session-retention cache info|clear`: the scan cache — the facts store, one SQLite database in
// the state folder (server/state/facts-store.ts) — shown, or emptied. Clearing loses nothing: the
// next scan reads every session again.
import { rmSync, statSync } from "node:fs";
import { parseArgs } from "node:util";
import { formatBytes } from "../../shared/format.js";
import { visible } from "../../shared/visible-text.js";
import { FACTS_LIMITS, FactsStore, factsFileIn, removeOldCaches } from "../state/facts-store.js";
import { statePaths } from "../state/state-dir.js";
import { UsageError } from "./errors.js";
import type { CliIo } from "./io.js";
import { renderTable } from "./table.js";

export const CACHE_HELP = `Usage: session-retention cache <info|clear> [--json]

  info    the scan cache: each store root it keeps the facts of, how many files, when a scan last used it
  clear   empty the scan cache (the next scan reads every session again; nothing else is lost)

The cache is one SQLite database; a scan loads only the facts of the folders it walks, so a small
store's scan never loads a big one's. Beyond ${FACTS_LIMITS.roots} store roots per kind, the least recently used go.

Options: --json (one JSON document), -h/--help.

Examples:
  session-retention cache info
  session-retention cache clear`;

/** What `cache info --json` and `cache clear --json` print. */
export interface CacheJson {
  /** The database file. */
  file: string;
  /** Each store root it keeps facts of, by reader (a store kind's name for what it reads, with a version). */
  roots: Array<{ reader: string; root: string; files: number; lastUsed: string }>;
  /** The database's bytes on disk (its write-ahead log included). */
  bytes: number;
  limits: typeof FACTS_LIMITS;
}

/** The bytes of the database and its -wal and -shm files. */
function bytesOf(file: string): number {
  let bytes = 0;
  for (const suffix of ["", "-wal", "-shm"])
    try {
      bytes += statSync(`${file}${suffix}`).size;
    } catch {
      // not there
    }
  return bytes;
}

function cacheJson(file: string, store: FactsStore | undefined): CacheJson {
  return {
    file,
    roots: (store?.info() ?? []).map((r) => ({ ...r, lastUsed: r.lastUsed.toISOString() })),
    bytes: bytesOf(file),
    limits: FACTS_LIMITS,
  };
}

export async function runCache(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  const [action, ...extra] = positionals;
  if (values.help || action === undefined) {
    io.stdout(CACHE_HELP);
    return values.help ? 0 : 2;
  }
  if (extra.length > 0) throw new UsageError(`cache ${action}: unexpected "${extra[0]}"`);
  if (action !== "info" && action !== "clear")
    throw new UsageError(`cache: unknown action "${action}" (info or clear)`);
  const paths = statePaths();
  const file = factsFileIn(paths.scanCache);
  const store = FactsStore.open(file);
  try {
    const document = cacheJson(file, store);
    if (action === "info") {
      if (values.json) io.stdout(JSON.stringify(document));
      else if (document.roots.length === 0) io.stdout(`The scan cache is empty (${visible(file)}).`);
      else {
        io.stdout(
          renderTable(
            ["FILES", "LAST USED", "KIND", "ROOT"],
            document.roots.map((r) => [String(r.files), r.lastUsed, r.reader, visible(r.root)]),
            [0],
          ),
        );
        io.stdout(
          `${document.roots.length} store root${document.roots.length === 1 ? "" : "s"}, ${formatBytes(document.bytes)} in ${visible(file)} (bound: ${FACTS_LIMITS.roots} roots per kind).`,
        );
      }
      return 0;
    }
    store?.clear();
    removeOldCaches(paths.scanCache);
    rmSync(paths.legacyScanCache, { force: true });
    if (values.json) io.stdout(JSON.stringify(document));
    else
      io.stdout(
        `Emptied the scan cache: the facts of ${document.roots.length} store root${document.roots.length === 1 ? "" : "s"}, ${formatBytes(document.bytes)}. The next scan reads every session again.`,
      );
    return 0;
  } finally {
    store?.close();
  }
}
