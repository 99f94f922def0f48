// The incremental scan cache: per file, its identity when last read and what reading it taught us.
// An unchanged file (same dev, inode, size, mtime ns) is never read again.
//
// On disk each entry is a flat JSON array rather than an object: a warm rescan spends most of its
// time loading this file, and arrays parse about 3× faster than the same data as keyed objects.
// The file is a header line, then lines of up to 1,000 entries, read and written in chunks: at
// 100,000 sessions one JSON document cost ~160 MB more peak memory, per-entry lines ~10% more time.
import { closeSync, mkdirSync, openSync, readSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { PiFileFacts, PiHeader, PiParseState } from "../stores/pi/session-parser.js";

const CACHE_VERSION = 4;
/** Entries per line of the file (a JSON array of entries). */
const ENTRIES_PER_LINE = 1000;
/** The first line of the file: lines of entries follow. */
const HEADER_LINE = JSON.stringify({ version: CACHE_VERSION });

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
    facts.length === 15 &&
    typeof facts[0] === "number"
  );
}

/** Loads the cache; a missing, corrupt or old-format file just means an empty cache (everything is re-read). */
export function loadScanCache(file: string): ScanCache {
  const cache: ScanCache = new Map();
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return cache;
  }
  // A line holds up to ENTRIES_PER_LINE entries, and the file is read in chunks: never one giant
  // string nor one giant array, yet few enough JSON.parse calls to stay as fast as one big parse.
  const chunk = Buffer.allocUnsafe(1 << 20);
  let carry = "";
  let first = true;
  const onLine = (line: string) => {
    if (first) {
      first = false;
      return line === HEADER_LINE;
    }
    if (!line) return true;
    let values: unknown;
    try {
      values = JSON.parse(line);
    } catch {
      return true; // a damaged line only means its files are read again
    }
    if (!Array.isArray(values)) return true;
    for (const value of values as unknown[]) {
      if (!looksEncoded(value)) continue;
      try {
        const [key, dev, ino, size, mtimeNs, facts, resume] = value;
        const entry: CacheEntry = { dev, ino, size, mtimeNs, facts: decodeFacts(facts) };
        if (resume) entry.resume = decodeFacts(resume);
        cache.set(key, entry);
      } catch {
        // A damaged entry only means that file is read again.
      }
    }
    return true;
  };
  try {
    for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0;) {
      const lines = (carry + chunk.toString("utf8", 0, n)).split("\n");
      carry = lines.pop()!;
      for (const line of lines) if (!onLine(line)) return new Map(); // another version: start afresh
    }
    if (carry && !onLine(carry)) return new Map();
  } finally {
    closeSync(fd);
  }
  return cache;
}

/** Writes atomically (temp file + rename), so a crash leaves the old cache or the new one. */
export function saveScanCache(file: string, cache: ScanCache): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, "w");
  try {
    writeSync(fd, `${HEADER_LINE}\n`);
    let batch: EncodedEntry[] = [];
    for (const [key, e] of cache) {
      const encoded: EncodedEntry = [
        key,
        e.dev,
        e.ino,
        e.size,
        e.mtimeNs,
        encodeFacts(e.facts),
        e.resume ? encodeFacts(e.resume) : null,
      ];
      batch.push(encoded);
      if (batch.length === ENTRIES_PER_LINE) {
        writeSync(fd, `${JSON.stringify(batch)}\n`);
        batch = [];
      }
    }
    if (batch.length) writeSync(fd, `${JSON.stringify(batch)}\n`);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}
