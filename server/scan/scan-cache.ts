// The incremental scan cache: per file, its identity when last read and what reading it taught us.
// An unchanged file (same dev, inode, size, mtime ns) is never read again.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { FileIdentity } from "../stores/pi/read-session-file.js";
import type { PiFileFacts, PiParseState } from "../stores/pi/session-parser.js";

const CACHE_VERSION = 1;

export interface CacheEntry {
  dev: string;
  ino: string;
  size: string;
  mtimeNs: string;
  facts: PiFileFacts;
  /** Resumable state when it differs from `facts` (last line without newline). */
  resume?: PiParseState;
}

export type ScanCache = Map<string, CacheEntry>;

export function identityKey(identity: FileIdentity) {
  return {
    dev: identity.dev.toString(),
    ino: identity.ino.toString(),
    size: identity.size.toString(),
    mtimeNs: identity.mtimeNs.toString(),
  };
}

function looksLikeEntry(value: unknown): value is CacheEntry {
  const entry = value as CacheEntry;
  return (
    typeof entry === "object" &&
    entry !== null &&
    typeof entry.dev === "string" &&
    typeof entry.ino === "string" &&
    typeof entry.size === "string" &&
    typeof entry.mtimeNs === "string" &&
    typeof entry.facts === "object" &&
    entry.facts !== null &&
    typeof entry.facts.offset === "number" &&
    typeof entry.facts.counts === "object"
  );
}

/** Loads the cache; a missing, corrupt or old-format file just means an empty cache (everything is re-read). */
export function loadScanCache(file: string): ScanCache {
  const cache: ScanCache = new Map();
  let parsed: { version?: unknown; entries?: Record<string, unknown> };
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return cache;
  }
  if (parsed?.version !== CACHE_VERSION || typeof parsed.entries !== "object" || parsed.entries === null)
    return cache;
  for (const [key, value] of Object.entries(parsed.entries)) {
    if (looksLikeEntry(value)) cache.set(key, value);
  }
  return cache;
}

/** Writes atomically (temp file + rename), so a crash leaves the old cache or the new one. */
export function saveScanCache(file: string, cache: ScanCache): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify({ version: CACHE_VERSION, entries: Object.fromEntries(cache) }));
  renameSync(temp, file);
}
