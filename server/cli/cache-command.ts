// `session-retention cache info|clear`: the incremental scan cache — one file per set of store
// roots, bounded (server/scan/scan-cache.ts) — shown, or removed. Clearing loses nothing: the next
// scan reads every session again.
import { parseArgs } from "node:util";
import { formatBytes } from "../../shared/format.js";
import { visible } from "../../shared/visible-text.js";
import { CACHE_LIMITS, type CacheFileInfo, clearCache, listCacheFiles } from "../scan/scan-cache.js";
import { statePaths } from "../state/state-dir.js";
import { UsageError } from "./errors.js";
import type { CliIo } from "./io.js";
import { renderTable } from "./table.js";

export const CACHE_HELP = `Usage: session-retention cache <info|clear> [--json]

  info    the scan cache's files: the store roots of each, its size and when a scan last used it
  clear   remove the scan cache (the next scan reads every session again; nothing else is lost)

The cache keeps one file per set of store roots, so a small store's scan never loads a big one's
entries; beyond ${CACHE_LIMITS.files} files or ${formatBytes(CACHE_LIMITS.bytes)} in all, the least recently used go.

Options: --json (one JSON document), -h/--help.`;

/** What `cache info --json` and `cache clear --json` print. */
export interface CacheJson {
  dir: string;
  files: Array<{ file: string; roots: string[]; bytes: number; lastUsed: string }>;
  bytes: number;
  limits: typeof CACHE_LIMITS;
}

function cacheJson(dir: string, files: readonly CacheFileInfo[]): CacheJson {
  return {
    dir,
    files: files.map((f) => ({ ...f, lastUsed: f.lastUsed.toISOString() })),
    bytes: files.reduce((total, f) => total + f.bytes, 0),
    limits: CACHE_LIMITS,
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
  const paths = statePaths();
  if (action === "info") {
    const document = cacheJson(paths.scanCache, listCacheFiles(paths.scanCache));
    if (values.json) io.stdout(JSON.stringify(document));
    else if (document.files.length === 0) io.stdout(`The scan cache is empty (${visible(paths.scanCache)}).`);
    else {
      io.stdout(
        renderTable(
          ["SIZE", "LAST USED", "ROOTS"],
          document.files.map((f) => [formatBytes(f.bytes), f.lastUsed, visible(f.roots.join(", ") || "?")]),
          [0],
        ),
      );
      io.stdout(
        `${document.files.length} file${document.files.length === 1 ? "" : "s"}, ${formatBytes(document.bytes)} in ${visible(paths.scanCache)} (bound: ${CACHE_LIMITS.files} files, ${formatBytes(CACHE_LIMITS.bytes)}).`,
      );
    }
    return 0;
  }
  if (action === "clear") {
    const document = cacheJson(paths.scanCache, clearCache(paths.scanCache, paths.legacyScanCache));
    if (values.json) io.stdout(JSON.stringify(document));
    else
      io.stdout(
        `Removed the scan cache: ${document.files.length} file${document.files.length === 1 ? "" : "s"}, ${formatBytes(document.bytes)}. The next scan reads every session again.`,
      );
    return 0;
  }
  throw new UsageError(`cache: unknown action "${action}" (info or clear)`);
}
