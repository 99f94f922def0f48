// The incremental scan cache: per file, its identity when last read and what reading it taught us.
// An unchanged file (same dev, inode, size, mtime ns) is never read again.
//
// On disk each entry is a flat JSON array rather than an object: a warm rescan spends most of its
// time loading this file, and arrays parse about 3× faster than the same data as keyed objects.
// The file is a header line, then lines of up to 250 entries, read and written in chunks: at
// 100,000 sessions one JSON document cost ~160 MB more peak memory, per-entry lines ~10% more time.
//
// There is one cache file per set of store roots (`cacheFileFor`), so a small store's warm scan
// loads only its own entries: with one file for all, a 71-session store took 0.79 s instead of
// 0.12 s after one big store had been scanned. The folder is bounded (`CACHE_LIMITS`): the files
// used least recently go first.
import { createHash } from "node:crypto";
import {
  closeSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { ensurePrivateDir } from "../fs/private-files.js";
import type { PiFileFacts, PiHeader, PiParseState } from "../stores/pi/session-parser.js";

const CACHE_VERSION = 5;
/**
 * Entries per line of the file (a JSON array of entries): ~85 KB, under V8's 128 KiB large-object
 * size, so a line's string dies young instead of waiting in the old generation for a full GC.
 */
const ENTRIES_PER_LINE = 250;
const NEWLINE = 10;
/** The first line of the file (the roots its entries are of, for `cache info`): lines of entries follow. */
const headerLine = (roots: readonly string[]) => JSON.stringify({ version: CACHE_VERSION, roots });

/** The header's roots when it is this version's, else undefined. */
function headerRoots(line: string): string[] | undefined {
  try {
    const header = JSON.parse(line) as { version?: unknown; roots?: unknown };
    return header.version === CACHE_VERSION && Array.isArray(header.roots)
      ? (header.roots as string[])
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The cache folder's bound: at most this many files (sets of roots) and bytes in all. Beyond it
 * the files used least recently are removed — a removed file only means its store's next scan
 * reads every session again. 256 MiB holds the caches of several 100,000-session stores.
 */
export const CACHE_LIMITS = { files: 16, bytes: 256 * 1024 * 1024 };

/** The cache file of this set of roots in `dir`: named by a hash, the same for any order. */
export function cacheFileFor(dir: string, roots: readonly string[]): string {
  const hash = createHash("sha256")
    .update(JSON.stringify([...roots].sort()))
    .digest("hex");
  return join(dir, `${hash.slice(0, 16)}.cache`);
}

export interface CacheFileInfo {
  file: string;
  /** The roots its entries are of; empty when the file is unreadable or of another version. */
  roots: string[];
  bytes: number;
  /** When a scan last used it (its mtime: a scan that changes nothing touches it). */
  lastUsed: Date;
}

/** The cache files in `dir`, most recently used first. */
export function listCacheFiles(dir: string): CacheFileInfo[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(".cache"));
  } catch {
    return [];
  }
  const files: CacheFileInfo[] = [];
  for (const name of names) {
    const file = join(dir, name);
    try {
      const stat = statSync(file);
      files.push({ file, roots: readRoots(file), bytes: stat.size, lastUsed: stat.mtime });
    } catch {
      // gone meanwhile
    }
  }
  return files.sort((a, b) => b.lastUsed.getTime() - a.lastUsed.getTime());
}

function readRoots(file: string): string[] {
  const fd = openSync(file, "r");
  try {
    const head = Buffer.alloc(64 * 1024);
    const n = readSync(fd, head, 0, head.length, 0);
    const end = head.subarray(0, n).indexOf(NEWLINE);
    return headerRoots(head.toString("utf8", 0, end === -1 ? n : end)) ?? [];
  } finally {
    closeSync(fd);
  }
}

/**
 * After a scan used `file`: marks it used now, then removes the least recently used files of
 * `dir` until it is within `limits` (never `file` itself). Returns the files removed.
 */
export function settleCacheDir(dir: string, file: string, limits = CACHE_LIMITS): string[] {
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    // no cache file (nothing was cached): nothing to mark
  }
  const files = listCacheFiles(dir);
  let bytes = files.reduce((total, f) => total + f.bytes, 0);
  let count = files.length;
  const removed: string[] = [];
  for (const f of [...files].reverse()) {
    if (count <= limits.files && bytes <= limits.bytes) break;
    if (f.file === file) continue;
    rmSync(f.file, { force: true });
    removed.push(f.file);
    count -= 1;
    bytes -= f.bytes;
  }
  return removed;
}

/** Removes every cache file of `dir` (and `legacy`, the single file of older versions). */
export function clearCache(dir: string, legacy?: string): CacheFileInfo[] {
  const files = listCacheFiles(dir);
  for (const f of files) rmSync(f.file, { force: true });
  if (legacy !== undefined) rmSync(legacy, { force: true });
  return files;
}

export interface CacheEntry {
  dev: number;
  ino: number;
  size: number;
  mtimeNs: string;
  facts: PiFileFacts;
  /** Resumable state when it differs from `facts` (last line without newline). */
  resume?: PiParseState;
}

export type ScanCache = Map<string, CacheEntry>;

type Problem = [first: number, count: number] | null;
type EncodedHeader = [
  id: string,
  timestamp: string,
  cwd: string,
  version: number | null,
  parent: string | null,
];
type EncodedFacts = [
  offset: number,
  lines: number,
  headerSeen: 0 | 1,
  header: EncodedHeader | null,
  entries: number,
  user: number,
  assistant: number,
  toolResult: number,
  other: number,
  /** `false` = no session_info seen, `null` = name cleared. */
  name: string | null | false,
  lastEntryAt: string | null,
  corrupt: Problem,
  long: Problem,
  tail: number,
  truncatedLastLine: 0 | 1,
  firstMessage: string | null,
];
type EncodedEntry = [
  key: string,
  dev: number,
  ino: number,
  size: number,
  mtimeNs: string,
  facts: EncodedFacts,
  resume: EncodedFacts | null,
];

function encodeFacts(facts: PiParseState & { truncatedLastLine?: boolean }): EncodedFacts {
  const h = facts.header;
  const c = facts.counts;
  return [
    facts.offset,
    facts.lines,
    facts.headerSeen ? 1 : 0,
    h ? [h.id, h.timestamp, h.cwd, h.version ?? null, h.parentSession ?? null] : null,
    facts.entries,
    c.user,
    c.assistant,
    c.toolResult,
    c.other,
    facts.name === undefined ? false : facts.name,
    facts.lastEntryAt ?? null,
    facts.corruptLines ? [facts.corruptLines.first, facts.corruptLines.count] : null,
    facts.longLines ? [facts.longLines.first, facts.longLines.count] : null,
    facts.tail,
    facts.truncatedLastLine ? 1 : 0,
    facts.firstMessage ?? null,
  ];
}

/** Builds plain objects with assignments, not spreads: this runs once per file on every scan. */
function decodeFacts(e: EncodedFacts): PiFileFacts {
  const [
    offset,
    lines,
    headerSeen,
    h,
    entries,
    user,
    assistant,
    toolResult,
    other,
    name,
    lastEntryAt,
    corrupt,
    long,
    tail,
    truncated,
    firstMessage,
  ] = e;
  let header: PiHeader | null = null;
  if (h) {
    header = { type: "session", id: h[0], timestamp: h[1], cwd: h[2] };
    if (h[3] !== null) header.version = h[3];
    if (h[4] !== null) header.parentSession = h[4];
  }
  const facts: PiFileFacts = {
    offset,
    lines,
    headerSeen: headerSeen === 1,
    header,
    entries,
    counts: { user, assistant, toolResult, other },
    tail,
    truncatedLastLine: truncated === 1,
  };
  if (name !== false) facts.name = name;
  if (lastEntryAt !== null) facts.lastEntryAt = lastEntryAt;
  if (corrupt) facts.corruptLines = { first: corrupt[0], count: corrupt[1] };
  if (long) facts.longLines = { first: long[0], count: long[1] };
  if (firstMessage !== null) facts.firstMessage = firstMessage;
  return facts;
}

/** Cheap shape check: the cache is our own file, but a damaged one must not crash a scan. */
function looksEncoded(value: unknown): value is EncodedEntry {
  if (!Array.isArray(value) || value.length !== 7) return false;
  const [key, dev, ino, size, mtimeNs, facts] = value;
  return (
    typeof key === "string" &&
    typeof dev === "number" &&
    typeof ino === "number" &&
    typeof size === "number" &&
    typeof mtimeNs === "string" &&
    Array.isArray(facts) &&
    facts.length === 16 &&
    typeof facts[0] === "number"
  );
}

/**
 * Calls `onEntry` for each well-formed entry of the cache file, in file order. False when there is no
 * usable file (missing, or another version: then nothing was handed over).
 */
function readEncodedEntries(file: string, onEntry: (value: EncodedEntry) => void): boolean {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return false;
  }
  // Read in chunks and cut into lines as bytes, each line decoded on its own: never one giant
  // string nor one giant array, and (with lines under V8's 128 KiB large-object size) no string
  // that outlives a young-generation collection.
  const chunk = Buffer.allocUnsafe(1 << 20);
  let carry: Buffer[] = [];
  let first = true;
  const onLine = (line: string) => {
    if (first) {
      first = false;
      return headerRoots(line) !== undefined;
    }
    if (!line) return true;
    let values: unknown;
    try {
      values = JSON.parse(line);
    } catch {
      return true; // a damaged line only means its files are read again
    }
    if (!Array.isArray(values)) return true;
    for (const value of values as unknown[]) if (looksEncoded(value)) onEntry(value);
    return true;
  };
  try {
    for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0;) {
      const bytes = chunk.subarray(0, n);
      let from = 0;
      for (let newline; (newline = bytes.indexOf(NEWLINE, from)) !== -1; from = newline + 1) {
        let line: string;
        if (carry.length > 0) {
          carry.push(bytes.subarray(from, newline));
          line = Buffer.concat(carry).toString("utf8");
          carry = [];
        } else line = bytes.toString("utf8", from, newline);
        if (!onLine(line)) return false; // another version: start afresh
      }
      if (from < n) carry.push(Buffer.from(bytes.subarray(from))); // a copy: the chunk is reused
    }
    if (carry.length > 0 && !onLine(Buffer.concat(carry).toString("utf8"))) return false;
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Loads the cache; a missing, corrupt or old-format file just means an empty cache (everything is
 * re-read). With `want`, which sees every key in the file, only the entries it wants are decoded
 * and kept: a server's rescan needs those of the few files that changed, not 100,000 of them.
 */
export function loadScanCache(file: string, want?: (key: string) => boolean): ScanCache {
  const cache: ScanCache = new Map();
  const usable = readEncodedEntries(file, (value) => {
    const [key, dev, ino, size, mtimeNs, facts, resume] = value;
    if (want && !want(key)) return;
    try {
      const entry: CacheEntry = { dev, ino, size, mtimeNs, facts: decodeFacts(facts) };
      if (resume) entry.resume = decodeFacts(resume);
      cache.set(key, entry);
    } catch {
      // A damaged entry only means that file is read again.
    }
  });
  return usable ? cache : new Map();
}

let tempCounter = 0;

/**
 * Writes a new cache entry by entry, in lines of `ENTRIES_PER_LINE`, to a temp file that `commit`
 * renames over the cache (a crash leaves the old cache or the new one) and `abort` removes. A scan
 * hands over each file's entry as soon as it is read, so the entries need not all be held at once.
 * The temp file is created by the first `add` (or by `commit`).
 */
export class ScanCacheWriter {
  private fd: number | undefined;
  private batch: EncodedEntry[] = [];
  // Unique per writer: two scans in one process (a server's look and a forced rescan) may overlap.
  private readonly temp: string;

  constructor(
    private readonly file: string,
    private readonly roots: readonly string[] = [],
  ) {
    this.temp = `${file}.${process.pid}.${++tempCounter}.tmp`;
  }

  add(key: string, e: CacheEntry): void {
    this.batch.push([
      key,
      e.dev,
      e.ino,
      e.size,
      e.mtimeNs,
      encodeFacts(e.facts),
      e.resume ? encodeFacts(e.resume) : null,
    ]);
    if (this.batch.length === ENTRIES_PER_LINE) this.flush();
  }

  /**
   * Copies the entries of the cache file `from` (this writer's own file, as it is now) whose key
   * `keep` accepts, as they are: nothing is decoded, and only one line of entries is held at a time.
   */
  copyFrom(from: string, keep: (key: string) => boolean): void {
    readEncodedEntries(from, (value) => {
      if (!keep(value[0])) return;
      this.batch.push(value);
      if (this.batch.length === ENTRIES_PER_LINE) this.flush();
    });
  }

  commit(): void {
    this.flush(true);
    closeSync(this.fd!);
    this.fd = undefined;
    renameSync(this.temp, this.file);
  }

  abort(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.temp, { force: true });
  }

  private flush(always = false) {
    if (this.batch.length === 0 && !always) return;
    if (this.fd === undefined) {
      ensurePrivateDir(dirname(this.file));
      this.fd = openSync(this.temp, "w", 0o600); // every session's path, cwd and name: private
      writeSync(this.fd, `${headerLine(this.roots)}\n`);
    }
    if (this.batch.length > 0) writeSync(this.fd, `${JSON.stringify(this.batch)}\n`);
    this.batch = [];
  }
}

/** Writes the whole cache atomically (temp file + rename), so a crash leaves the old cache or the new one. */
export function saveScanCache(file: string, cache: ScanCache, roots: readonly string[] = []): void {
  const writer = new ScanCacheWriter(file, roots);
  try {
    for (const [key, entry] of cache) writer.add(key, entry);
    writer.commit();
  } catch (error) {
    writer.abort();
    throw error;
  }
}
