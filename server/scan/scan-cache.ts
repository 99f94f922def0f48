// The incremental scan cache: per file, its identity when last read and what reading it taught us.
// An unchanged file (same dev, inode, size, mtime ns) is never read again.
//
// A warm rescan is a walk and then this file: the file is made to be cheap to load. It is a header
// line, then blocks, one a line, each of up to 250 files of one folder: the folder once, the file
// names relative to it, the cwds of their headers once, and each field of the files as one JSON
// array (a column): parsing columns is ~40% faster than an array per file, and lines of entries
// were 3× faster than keyed objects. Blocks are written in the order the scan met the files and
// looked up in that order (a cursor; a map of names only when the order differs), and a block is
// parsed only when its folder is reached and decoded an entry at a time, when asked for: the
// decoded entries of a whole file were ~70 MB at 100,000 sessions, all of it promoted to V8's old
// generation before the first record was built. The text is ASCII only (every other character
// escaped as \uXXXX): it is read with a copy of its bytes rather than a UTF-8 decode, and a byte
// outside ASCII marks a damaged block. A block that does not parse or has the wrong shape is
// skipped (its files are read again); another version's file is ignored as a whole.
//
// Writing the file anew after a scan that read a few files again cost as much as a third of a warm
// rescan: then their entries are appended instead, after a line `"journal"` (the latest entry of a
// file stands), until the journal passes an eighth of the file or a file goes (`ScanCacheWriter`).
//
// There is one cache file per set of store roots (`cacheFileFor`), so a small store's warm scan
// loads only its own entries: with one file for all, a 71-session store took 0.79 s instead of
// 0.12 s after one big store had been scanned. The folder is bounded (`CACHE_LIMITS`): the files
// used least recently go first.
import { isAscii } from "node:buffer";
import { createHash } from "node:crypto";
import {
  closeSync,
  constants,
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

/** 6: blocks of columns, ASCII only. 5: lines of 250 entries, each an array. Other versions are ignored. */
const CACHE_VERSION = 6;
/**
 * Files per block (a line): ~80 KB, under V8's 128 KiB large-object size, so a block's text and
 * arrays die young instead of waiting in the old generation for a full GC.
 */
const ENTRIES_PER_BLOCK = 250;
const NEWLINE = 10;
const SLASH = 47;
/** The first line of the file (the roots its entries are of, for `cache info`): blocks follow. */
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
    removeCacheFile(f.file);
    removed.push(f.file);
    count -= 1;
    bytes -= f.bytes;
  }
  return removed;
}

/** Removes a cache file and what the `scan` table keeps beside it (overview-snapshot.ts: the snapshot, its journal, the records shown). */
function removeCacheFile(file: string): void {
  rmSync(file, { force: true });
  rmSync(`${file}.overview`, { force: true });
  rmSync(`${file}.shown`, { force: true });
  rmSync(`${file}.changed`, { force: true });
}

/** Removes every cache file of `dir` (and `legacy`, the single file of older versions). */
export function clearCache(dir: string, legacy?: string): CacheFileInfo[] {
  const files = listCacheFiles(dir);
  for (const f of files) removeCacheFile(f.file);
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

// ---------------------------------------------------------------------------------------------
// Blocks: `[folder, cwds, names, columns]` — the key of file i is `${folder}/${names[i]}` (a folder
// of null holds whole keys: the journal's, and `bytes:…` ones, of paths that are not UTF-8), and its
// fields are `columns[c][i]`, in the order of `COLUMNS`.
// ---------------------------------------------------------------------------------------------

type Problem = [first: number, count: number] | null;
type EncodedHeader = [
  id: string,
  timestamp: string,
  cwd: string,
  version: number | null,
  parent: string | null,
];
/** A parse state in one array (a `resume` column's value): rare, so not in columns of its own. */
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

const COLUMNS = [
  "dev",
  "ino",
  "size",
  "mtimeNs",
  "offset",
  "lines",
  "headerSeen", // 0 | 1
  "id", // the header's, or null without a header
  "timestamp",
  "cwd", // index into the block's cwds
  "version", // number | null
  "parent", // string | null
  "entries",
  "user",
  "assistant",
  "toolResult",
  "other",
  "name", // false: no session_info seen, null: name cleared
  "lastEntryAt", // string | null
  "corrupt", // [first, count] | null
  "long", // [first, count] | null
  "tail",
  "truncated", // 0 | 1
  "firstMessage", // string | null
  "resume", // EncodedFacts | 0
] as const;
const C = Object.fromEntries(COLUMNS.map((name, i) => [name, i])) as {
  [K in (typeof COLUMNS)[number]]: number;
};

type Columns = unknown[][];
interface ParsedBlock {
  folder: string | null;
  cwds: string[];
  names: string[];
  columns: Columns;
}

/** The folder part of a key and its name in it; `bytes:` keys are whole names (of folder null). */
function splitKey(key: string): [folder: string | null, name: string] {
  if (key.startsWith("bytes:")) return [null, key];
  const at = key.lastIndexOf("/");
  return [key.slice(0, at), key.slice(at + 1)];
}

const keyOf = (folder: string | null, name: string) => (folder === null ? name : `${folder}/${name}`);

/** JSON with every character outside ASCII escaped (JSON has them only inside strings). */
const NOT_ASCII = /[\u0080-\uffff]/g;
/** Escapes made once each: a block of 250 first messages may have hundreds of "é"s. */
const escapes = new Map<string, string>();
const escapeOne = (c: string) => {
  let escaped = escapes.get(c);
  if (escaped === undefined)
    escapes.set(c, (escaped = `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));
  return escaped;
};
const asciiJson = (value: unknown) => JSON.stringify(value).replace(NOT_ASCII, escapeOne);

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

const isCount = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;
const isProblem = (v: unknown): v is Problem =>
  v === null || (Array.isArray(v) && v.length === 2 && isCount(v[0]) && isCount(v[1]));
const isOptionalString = (v: unknown): v is string | null => v === null || typeof v === "string";

/**
 * The facts of fields in `EncodedFacts`' order (its header given apart, decoded), as plain objects
 * built with assignments (this runs once per file on every scan), or undefined when a value is not
 * of its type: a damaged entry is read again.
 */
function factsOf(e: readonly unknown[], header: PiHeader | null): PiFileFacts | undefined {
  const [offset, lines, headerSeen, , entries, user, assistant, toolResult, other, name, ...rest] = e;
  const [lastEntryAt, corrupt, long, tail, truncated, firstMessage] = rest;
  if (
    !isCount(offset) ||
    !isCount(lines) ||
    (headerSeen !== 0 && headerSeen !== 1) ||
    !isCount(entries) ||
    !isCount(user) ||
    !isCount(assistant) ||
    !isCount(toolResult) ||
    !isCount(other) ||
    (name !== false && !isOptionalString(name)) ||
    !isOptionalString(lastEntryAt) ||
    !isProblem(corrupt) ||
    !isProblem(long) ||
    typeof tail !== "number" ||
    (truncated !== 0 && truncated !== 1) ||
    !isOptionalString(firstMessage)
  )
    return undefined;
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

/** A header from its fields, or undefined when they are not of their types (null: no header). */
function headerOf(
  id: unknown,
  timestamp: unknown,
  cwd: unknown,
  version: unknown,
  parent: unknown,
): PiHeader | null | undefined {
  if (id === null) return null;
  if (
    typeof id !== "string" ||
    typeof timestamp !== "string" ||
    typeof cwd !== "string" ||
    (version !== null && !Number.isInteger(version)) ||
    !isOptionalString(parent)
  )
    return undefined;
  const header: PiHeader = { type: "session", id, timestamp, cwd };
  if (version !== null) header.version = version as number;
  if (parent !== null) header.parentSession = parent;
  return header;
}

function decodeFacts(e: unknown): PiFileFacts | undefined {
  if (!Array.isArray(e) || e.length !== 16) return undefined;
  const h = e[3] as unknown;
  const header = h === null ? null : Array.isArray(h) ? headerOf(h[0], h[1], h[2], h[3], h[4]) : undefined;
  if (header === undefined) return undefined;
  return factsOf(e, header);
}

/** An entry as one JSON array (how the `scan` table's journal keeps the entries of the files it read). */
export function encodeCacheEntry(e: CacheEntry): unknown[] {
  return [e.dev, e.ino, e.size, e.mtimeNs, encodeFacts(e.facts), e.resume ? encodeFacts(e.resume) : 0];
}

/** An entry `encodeCacheEntry` made, or undefined when it is damaged (its file is read again). */
export function decodeCacheEntry(value: unknown): CacheEntry | undefined {
  if (!Array.isArray(value) || value.length !== 6) return undefined;
  const [dev, ino, size, mtimeNs, facts, resume] = value as unknown[];
  if (
    !isCount(dev) ||
    !isCount(ino) ||
    !isCount(size) ||
    typeof mtimeNs !== "string" ||
    !/^\d+$/.test(mtimeNs)
  )
    return undefined;
  const decoded = decodeFacts(facts);
  if (!decoded) return undefined;
  const entry: CacheEntry = { dev, ino, size, mtimeNs, facts: decoded };
  if (resume !== 0) {
    const state = decodeFacts(resume);
    if (!state) return undefined;
    const { truncatedLastLine: _, ...rest } = state;
    entry.resume = rest;
  }
  return entry;
}

/** The column of each field of `EncodedFacts`, in its order (the header's, at 3, is five columns). */
const FACT_COLUMNS = [
  C.offset,
  C.lines,
  C.headerSeen,
  C.id,
  C.entries,
  C.user,
  C.assistant,
  C.toolResult,
  C.other,
  C.name,
  C.lastEntryAt,
  C.corrupt,
  C.long,
  C.tail,
  C.truncated,
  C.firstMessage,
];
/** Where `decodeEntry` gathers an entry's facts for `factsOf`: one array for every entry. */
const fields: unknown[] = [];

/** Entry `i` of a block, or undefined when it is damaged. */
function decodeEntry(block: ParsedBlock, i: number): CacheEntry | undefined {
  const c = block.columns;
  const dev = c[C.dev]![i];
  const ino = c[C.ino]![i];
  const size = c[C.size]![i];
  const mtimeNs = c[C.mtimeNs]![i];
  if (!isCount(dev) || !isCount(ino) || !isCount(size) || typeof mtimeNs !== "string") return undefined;
  const id = c[C.id]![i];
  const cwd = id === null ? null : block.cwds[c[C.cwd]![i] as number];
  const header = headerOf(id, c[C.timestamp]![i], cwd, c[C.version]![i], c[C.parent]![i]);
  if (header === undefined) return undefined;
  // The facts' fields as `EncodedFacts` has them (the header, at 3, is decoded apart).
  for (let f = 0; f < FACT_COLUMNS.length; f++) fields[f] = c[FACT_COLUMNS[f]!]![i];
  const facts = factsOf(fields, header);
  if (!facts) return undefined;
  const entry: CacheEntry = { dev, ino, size, mtimeNs, facts };
  const resume = c[C.resume]![i];
  if (resume !== 0) {
    const decoded = decodeFacts(resume);
    if (!decoded) return undefined;
    const { truncatedLastLine: _, ...state } = decoded; // a parse state has none (rare: copied)
    entry.resume = state;
  }
  return entry;
}

/** A block's text parsed, or undefined when it is not a block of the right shape. */
function parseBlock(text: string): ParsedBlock | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 4) return undefined;
  const [folder, cwds, names, columns] = value as unknown[];
  if (folder !== null && typeof folder !== "string") return undefined;
  if (!Array.isArray(cwds) || !cwds.every((cwd) => typeof cwd === "string")) return undefined;
  if (!Array.isArray(names) || !names.every((name) => typeof name === "string")) return undefined;
  if (!Array.isArray(columns) || columns.length !== COLUMNS.length) return undefined;
  for (const column of columns as unknown[])
    if (!Array.isArray(column) || column.length !== names.length) return undefined;
  return { folder, cwds: cwds as string[], names: names as string[], columns: columns as Columns };
}

/** An entry's value in each column; `cwdIndex` gives its cwd's index in the block's cwds. */
function columnValues(e: CacheEntry, cwdIndex: (cwd: string) => number): unknown[] {
  // The columns are the entry's fields in `encodeFacts`' order, the header's spread out.
  const [offset, lines, headerSeen, h, ...rest] = encodeFacts(e.facts);
  return [
    e.dev,
    e.ino,
    e.size,
    e.mtimeNs,
    offset,
    lines,
    headerSeen,
    h ? h[0] : null,
    h ? h[1] : null,
    h ? cwdIndex(h[2]) : -1,
    h ? h[3] : null,
    h ? h[4] : null,
    ...rest,
    e.resume ? encodeFacts(e.resume) : 0,
  ];
}

/** A block being written: the entries of one folder, as columns. */
class BlockBuilder {
  readonly cwds: string[] = [];
  private readonly cwdIndex = new Map<string, number>();
  readonly names: string[] = [];
  readonly columns: Columns = COLUMNS.map(() => []);

  constructor(readonly folder: string | null) {}

  get length(): number {
    return this.names.length;
  }

  add(name: string, e: CacheEntry): void {
    this.names.push(name);
    const values = columnValues(e, (cwd) => this.cwd(cwd));
    for (let c = 0; c < values.length; c++) this.columns[c]!.push(values[c]);
  }

  /** Entry `i` of a parsed block, as it is (nothing decoded), under `name` in this block. */
  copy(block: ParsedBlock, i: number, name: string): void {
    this.names.push(name);
    for (let c = 0; c < COLUMNS.length; c++)
      this.columns[c]!.push(valueIn(block, c, i, (cwd) => this.cwd(cwd)));
  }

  private cwd(cwd: string): number {
    let index = this.cwdIndex.get(cwd);
    if (index === undefined) this.cwdIndex.set(cwd, (index = this.cwds.push(cwd) - 1));
    return index;
  }

  text(): string {
    return asciiJson([this.folder, this.cwds, this.names, this.columns]);
  }
}

/** Column `c` of entry `i` of a parsed block, its cwd as an index given by `cwdIndex` (a damaged one stays damaged). */
function valueIn(block: ParsedBlock, c: number, i: number, cwdIndex: (cwd: string) => number): unknown {
  const value = block.columns[c]![i];
  if (c !== C.cwd || block.columns[C.id]![i] === null) return value;
  const cwd = block.cwds[value as number];
  return cwd === undefined ? -1 : cwdIndex(cwd);
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

/** What a scan did with an entry (`Block.state`). */
const UNSEEN = 0; // not looked up: its file was not met (gone, or of another store)
const REUSED = 1; // its file is unchanged: the entry stays as it is
const REPLACED = 2; // its file was read again: the writer has its new entry
const STALE = 3; // a later entry of the same file (in the journal) stands for it
const FAILED = 4; // looked up, then neither reused nor replaced: its file could not be read

/** The line that starts the journal: the blocks after it hold newer entries of files of the blocks before. */
const JOURNAL = '"journal"';

interface Block {
  /** Where its line is in the file's bytes. */
  start: number;
  end: number;
  folder: string | null;
  /** After the journal's line: its entries stand for any earlier entry of the same file. */
  journal: boolean;
  /** Parsed when its folder is reached; let go when the scan moves on to another folder (a journal's: kept). */
  parsed: ParsedBlock | undefined;
  /** What the scan did with each of its entries (`UNSEEN`, `REUSED`, …). */
  state: Uint8Array | undefined;
  /** A block that could not be parsed: its files are read again. */
  damaged: boolean;
}

/** An entry: its block and place in it. */
interface Place {
  block: Block;
  entry: number;
}

interface Folder {
  /** Its blocks before the journal, in file order. */
  blocks: Block[];
  /** Where the next file is expected: the files of a folder come in the order they were written. */
  cursorBlock: number;
  cursorEntry: number;
  /** Names to block and entry (block << 16 | entry), made when the order is not the cursor's. */
  index: Map<string, number> | undefined;
}

/** The folder a block line names: its first JSON value, parsed alone (the rest waits). */
function folderOfLine(text: string): string | null | undefined {
  if (text.startsWith("[null,")) return null;
  if (!text.startsWith('["')) return undefined;
  for (let at = 2; at < text.length; at++) {
    const ch = text.charCodeAt(at);
    if (ch === 92)
      at += 1; // a backslash escapes what follows
    else if (ch === 34) {
      try {
        return JSON.parse(text.slice(1, at + 1)) as string;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** Bytes of a block's line kept while the file is read: its folder is the first value in them. */
const HEAD_BYTES = 512;
/** At most this many bytes name a block's folder (a path of 4,096 bytes, each escaped as six). */
const FOLDER_BYTES = 32 * 1024;

/**
 * The blocks of an open cache file, where its lines are and the folder each names (from its first
 * bytes), or undefined when the header is not this version's. Read in chunks of 1 MiB.
 */
function findBlocks(fd: number): Block[] | undefined {
  const chunk = Buffer.allocUnsafe(1 << 20);
  const blocks: Block[] = [];
  let header = true;
  let journal = false;
  let lineStart = 0;
  /** The first bytes of the current line: the whole header (up to 64 KiB), a block's `HEAD_BYTES`. */
  let head: Buffer[] = [];
  let headLength = 0;
  const keep = (bytes: Buffer) => {
    const room = (header ? 64 * 1024 : HEAD_BYTES) - headLength;
    if (room <= 0 || bytes.length === 0) return;
    const part = Buffer.from(bytes.subarray(0, room)); // a copy: the chunk is reused
    head.push(part);
    headLength += part.length;
  };
  /** The line that ends at `end` is complete (or the file ends there); false: not this version. */
  const lineDone = (end: number) => {
    let bytes = Buffer.concat(head);
    head = [];
    headLength = 0;
    if (header) {
      header = false;
      return headerRoots(bytes.toString("utf8")) !== undefined;
    }
    if (end <= lineStart) return true; // a blank line (an append starts with one)
    const text = bytes.toString("latin1");
    if (text === JOURNAL) {
      journal = true;
      return true;
    }
    let folder = folderOfLine(text);
    if (folder === undefined && end - lineStart > bytes.length) {
      // A folder longer than the head (rare): read as much of the line as may name it.
      bytes = Buffer.allocUnsafe(Math.min(end - lineStart, FOLDER_BYTES));
      folder = folderOfLine(bytes.toString("latin1", 0, readSync(fd, bytes, 0, bytes.length, lineStart)));
    }
    blocks.push({
      start: lineStart,
      end,
      folder: folder ?? null,
      journal,
      parsed: undefined,
      state: undefined,
      damaged: folder === undefined,
    });
    return true;
  };
  let position = 0;
  for (let n; (n = readSync(fd, chunk, 0, chunk.length, position)) > 0; position += n) {
    const bytes = chunk.subarray(0, n);
    let from = 0;
    for (let newline; (newline = bytes.indexOf(NEWLINE, from)) !== -1; from = newline + 1) {
      keep(bytes.subarray(from, newline));
      if (!lineDone(position + newline)) return undefined;
      lineStart = position + newline + 1;
    }
    keep(bytes.subarray(from));
  }
  if (position > lineStart || header) {
    // A last line without its line break: a block cut short will not parse.
    if (!lineDone(position)) return undefined;
  }
  return blocks;
}

/**
 * A cache file opened for one scan: its blocks are found by folder, parsed when first needed and
 * decoded an entry at a time. `get` finds a file's entry (a journal's, when it has one: the latest
 * entry of a file stands); `reuse` marks the entry just found as still true (its file is
 * unchanged), `replace` as read again; `ScanCacheWriter.copyReused` writes the file anew from that.
 */
export class ScanCacheReader {
  private readonly folders = new Map<string | null, Folder>();
  /** The latest journal entry of each file the journal has. */
  private readonly latest = new Map<string, Place>();
  /** Bytes of the blocks before the journal, and of the journal's. */
  private mainBytes = 0;
  private journalBytes = 0;
  private lastFolder: Folder | undefined;
  private lastFolderKey: string | null | undefined;
  private lastFound: Place | undefined;
  private lastKey: string | undefined;

  /** Where a block's bytes are read to (a block is ~80 KB). */
  private scratch = Buffer.allocUnsafe(256 * 1024);

  private constructor(
    private fd: number,
    readonly blocks: readonly Block[],
  ) {
    for (const block of blocks) {
      if (block.journal) {
        // The journal is small and parsed at once: a journal entry stands for any earlier one.
        this.journalBytes += block.end - block.start;
        const parsed = this.parse(block);
        if (!parsed) continue;
        parsed.names.forEach((name, entry) => {
          const key = keyOf(block.folder, name);
          const before = this.latest.get(key);
          if (before) before.block.state![before.entry] = STALE;
          this.latest.set(key, { block, entry });
        });
      } else {
        this.mainBytes += block.end - block.start;
        this.folderOf(block.folder).blocks.push(block);
      }
    }
  }

  private folderOf(key: string | null): Folder {
    let folder = this.folders.get(key);
    if (!folder) {
      folder = { blocks: [], cursorBlock: 0, cursorEntry: 0, index: undefined };
      this.folders.set(key, folder);
    }
    return folder;
  }

  /**
   * The file's reader, or undefined when there is no usable file (missing, or another version). The
   * file is read once in chunks to find its blocks and their folders; a block's bytes are read again
   * when it is parsed. Holding the whole file (33 MB at 100,000 sessions) until the scan's end was
   * that much more peak memory. `close` when done.
   */
  static open(file: string): ScanCacheReader | undefined {
    let fd: number;
    try {
      fd = openSync(file, "r");
    } catch {
      return undefined;
    }
    try {
      const blocks = findBlocks(fd);
      if (blocks) return new ScanCacheReader(fd, blocks);
    } catch {
      // unreadable: as if there were none
    }
    closeSync(fd);
    return undefined;
  }

  close(): void {
    if (this.fd === -1) return;
    closeSync(this.fd);
    this.fd = -1;
  }

  /** The block's parsed text (undefined when damaged). */
  parse(block: Block): ParsedBlock | undefined {
    if (block.parsed || block.damaged) return block.parsed;
    const length = block.end - block.start;
    if (length > this.scratch.length) this.scratch = Buffer.allocUnsafe(length);
    const bytes = this.scratch.subarray(0, length);
    const parsed =
      readSync(this.fd, bytes, 0, length, block.start) === length && isAscii(bytes)
        ? parseBlock(bytes.toString("latin1"))
        : undefined;
    if (!parsed || parsed.folder !== block.folder) {
      block.damaged = true;
      return undefined;
    }
    block.state ??= new Uint8Array(parsed.names.length);
    block.parsed = parsed;
    return parsed;
  }

  /** The raw line of a block (for a copy of it as it is). */
  text(block: Block): Buffer {
    const bytes = Buffer.allocUnsafe(block.end - block.start);
    readSync(this.fd, bytes, 0, bytes.length, block.start);
    return bytes;
  }

  /** The entry of `key`, decoded; undefined when there is none (or it is damaged). */
  get(key: string): CacheEntry | undefined {
    this.lastFound = undefined;
    this.lastKey = key;
    // The name starts at `nameAt` in the key. In the same folder as the last key (the usual case:
    // a scan meets the files folder by folder), nothing is cut out of the key.
    const last = this.lastFolderKey;
    let nameAt: number;
    if (
      typeof last === "string" &&
      key.charCodeAt(last.length) === SLASH &&
      key.startsWith(last) &&
      key.indexOf("/", last.length + 1) === -1
    )
      nameAt = last.length + 1;
    else {
      const [folderKey] = splitKey(key);
      nameAt = folderKey === null ? 0 : folderKey.length + 1;
      // On to another folder: the last one's parsed blocks can go (they die young).
      if (this.lastFolder) this.release(this.lastFolder);
      this.lastFolder = this.folders.get(folderKey);
      this.lastFolderKey = folderKey;
    }
    const folder = this.lastFolder;
    let found = this.latest.size > 0 ? this.latest.get(key) : undefined;
    if (found) {
      // The file's earlier entry, where the cursor expects it, is passed over: it is stale.
      const stale = folder && this.atCursor(folder, key, nameAt);
      if (stale) stale.block.state![stale.entry] = STALE;
    } else if (folder) found = this.atCursor(folder, key, nameAt) ?? this.inIndex(folder, key.slice(nameAt));
    if (!found) return undefined;
    const parsed = this.parse(found.block);
    const entry = parsed ? decodeEntry(parsed, found.entry) : undefined;
    if (!entry) return undefined;
    this.lastFound = found;
    const state = found.block.state!;
    if (state[found.entry] === UNSEEN) state[found.entry] = FAILED; // until reused or replaced
    return entry;
  }

  /** Marks the entry `get` just returned for `key` as still true: its file is unchanged. */
  reuse(key: string): void {
    this.mark(key, REUSED);
  }

  /** Marks the entry `get` just returned for `key` as replaced: its file was read again. */
  replace(key: string): void {
    this.mark(key, REPLACED);
  }

  private mark(key: string, state: number) {
    if (key === this.lastKey && this.lastFound) this.lastFound.block.state![this.lastFound.entry] = state;
  }

  /** The latest journal entry of `key`, if the journal has one. */
  latestOf(key: string): Place | undefined {
    return this.latest.get(key);
  }

  /** Whether a journal of `entries` more entries would still be small beside the rest of the file. */
  journalFits(entries: number): boolean {
    return this.journalBytes + entries * 400 <= Math.max(64 * 1024, this.mainBytes / 8);
  }

  /** The entry at the folder's cursor when it is the key's (its name from `nameAt` on), moving the cursor on. */
  private atCursor(folder: Folder, key: string, nameAt: number): Place | undefined {
    while (folder.cursorBlock < folder.blocks.length) {
      const block = folder.blocks[folder.cursorBlock]!;
      const parsed = this.parse(block);
      if (parsed && folder.cursorEntry < parsed.names.length) {
        const name = parsed.names[folder.cursorEntry]!;
        if (name.length !== key.length - nameAt || !key.endsWith(name)) return undefined;
        const found = { block, entry: folder.cursorEntry };
        folder.cursorEntry += 1;
        return found;
      }
      folder.cursorBlock += 1;
      folder.cursorEntry = 0;
    }
    return undefined;
  }

  /** The entry of `name` found by a map of the folder's names; the cursor goes on from there. */
  private inIndex(folder: Folder, name: string): Place | undefined {
    folder.index ??= this.indexOf(folder);
    const at = folder.index.get(name);
    if (at === undefined) return undefined;
    // After a file new to the cache, the next are in order again.
    folder.cursorBlock = at >>> 16;
    folder.cursorEntry = (at & 0xffff) + 1;
    return { block: folder.blocks[at >>> 16]!, entry: at & 0xffff };
  }

  private indexOf(folder: Folder): Map<string, number> {
    const index = new Map<string, number>();
    folder.blocks.forEach((block, b) => {
      const names = this.parse(block)?.names ?? [];
      for (let i = 0; i < names.length; i++) if (!index.has(names[i]!)) index.set(names[i]!, (b << 16) | i);
    });
    return index;
  }

  private release(folder: Folder) {
    for (const block of folder.blocks) block.parsed = undefined;
    folder.index = undefined;
  }

  /** Whether a later entry (the journal's) stands for entry `i` of a block. */
  superseded(block: Block, i: number): boolean {
    const parsed = this.parse(block);
    if (!parsed) return false;
    const latest = this.latest.get(keyOf(block.folder, parsed.names[i]!));
    return latest !== undefined && (latest.block !== block || latest.entry !== i);
  }

  /** Every entry's key, in file order, with its block and place in it (blocks are parsed as needed). */
  *entries(): Generator<{ key: string; block: Block; parsed: ParsedBlock; entry: number }> {
    for (const block of this.blocks) {
      const parsed = this.parse(block);
      if (!parsed) continue;
      for (let entry = 0; entry < parsed.names.length; entry++)
        yield { key: keyOf(block.folder, parsed.names[entry]!), block, parsed, entry };
      if (!block.journal) block.parsed = undefined;
    }
  }
}

/**
 * Loads the cache; a missing, corrupt or old-format file just means an empty cache (everything is
 * re-read). With `want`, which sees every key in the file, only the entries it wants are decoded
 * and kept: a server's rescan needs those of the few files that changed, not 100,000 of them. Of a
 * file with two entries (the journal's is later), the later stands.
 */
export function loadScanCache(file: string, want?: (key: string) => boolean): ScanCache {
  const cache: ScanCache = new Map();
  const reader = ScanCacheReader.open(file);
  if (!reader) return cache;
  try {
    for (const { key, parsed, entry } of reader.entries()) {
      if (want && !want(key)) continue;
      const decoded = decodeEntry(parsed, entry);
      if (decoded) cache.set(key, decoded);
    }
  } finally {
    reader.close();
  }
  return cache;
}

/** Whether the files of a block (or, in a block of whole keys, the file of `key`) are under `roots`. */
function underRoots(folder: string | null, key: string, roots: readonly string[]): boolean {
  const path = folder !== null ? `${folder}/` : key.startsWith("bytes:") ? bytesKeyPath(key) : key;
  return roots.some((root) => path.startsWith(root.endsWith("/") ? root : `${root}/`));
}

/** The path a `bytes:` key stands for (undecodable bytes as U+FFFD, enough for a prefix test). */
const bytesKeyPath = (key: string) => Buffer.from(key.slice("bytes:".length), "base64").toString("utf8");

/** How many entries a writer holds to write in place of old ones (`inPlace`) before it writes them as they come. */
const HELD_ENTRIES = 5000;

let tempCounter = 0;

/** What becomes of an entry when a block is written again (`copyBlock`). */
const DROP = 0;
const COPY = 1;
const HELD = 2; // the held entry of its file, in its place
const LATEST = 3; // the journal's entry of its file, in its place

/**
 * Writes a new cache entry by entry, in blocks of `ENTRIES_PER_BLOCK`, to a temp file that `commit`
 * renames over the cache (a crash leaves the old cache or the new one) and `abort` removes. A scan
 * hands over each file's entry as soon as it is read, so the entries need not all be held at once.
 * The temp file is created by the first block written (or by `commit`).
 *
 * When a scan only read some files again (nothing gone) and they are few, `copyReused` does not
 * write the file anew: `commit` appends their entries to it, after a journal line. An append cut
 * short by a crash is a damaged last line, whose files are read again; the next scan that finds
 * something gone, or a journal grown past an eighth of the file, writes the file anew.
 */
export class ScanCacheWriter {
  private fd: number | undefined;
  private block: BlockBuilder | undefined;
  /** Entries to write where the old file had the same files' entries (`inPlace`). */
  private held: Map<string, CacheEntry> | undefined;
  /** The reader whose entries the held ones replace. */
  private reader: ScanCacheReader | undefined;
  /** Set by `copyReused`: `commit` appends the held entries to the file as a journal. */
  private append = false;
  // Unique per writer: two scans in one process (a server's look and a forced rescan) may overlap.
  private readonly temp: string;

  constructor(
    private readonly file: string,
    private readonly roots: readonly string[] = [],
  ) {
    this.temp = `${file}.${process.pid}.${++tempCounter}.tmp`;
  }

  /**
   * From now on, entries added are held (up to `HELD_ENTRIES`) and written by `copyReused` where
   * `reader`'s file had the entry of the same file, so that the new file keeps the order in which
   * a scan meets the files: the reader finds them with its cursor, not a map of names.
   */
  inPlace(reader?: ScanCacheReader): void {
    this.held ??= new Map();
    this.reader = reader;
  }

  add(key: string, e: CacheEntry): void {
    if (this.held) {
      this.reader?.replace(key);
      if (this.held.size < HELD_ENTRIES) {
        this.held.set(key, e);
        return;
      }
      this.writeHeld(); // too many to hold: written as they come from now on
      this.held = undefined;
    }
    const [folder, name] = splitKey(key);
    this.blockFor(folder).add(name, e);
  }

  /**
   * Copies the entries of the cache file `from` (this writer's own file, as it is now) whose key
   * `keep` accepts, as they are: nothing is decoded, and only one block is held at a time. Of a
   * file with a journal, only the latest entry of each file is copied.
   */
  copyFrom(from: string, keep: (key: string) => boolean): void {
    const reader = ScanCacheReader.open(from);
    if (!reader) return;
    try {
      for (const block of reader.blocks) {
        const parsed = reader.parse(block);
        if (!parsed) continue;
        const what = (i: number) =>
          keep(keyOf(block.folder, parsed.names[i]!)) && !reader.superseded(block, i) ? COPY : DROP;
        if (block.journal) this.copyToFolders(parsed, what);
        else this.copyBlock(reader, block, parsed, what);
        if (!block.journal) block.parsed = undefined;
      }
    } finally {
      reader.close();
    }
    this.writeHeld();
  }

  /**
   * After a scan of `roots` with `reader`'s file: writes the file anew — the entries the scan
   * reused (files found unchanged) and those of files outside `roots` (other stores' scans) as they
   * are, the held entries where the entries of their files were, and not the other entries of files
   * under `roots` (their files were not found, or could not be read) — or, when it only read a few
   * files again and nothing went, leaves the file to `commit`, which appends their entries.
   */
  copyReused(reader: ScanCacheReader, roots: readonly string[]): void {
    const held = this.held ?? new Map<string, CacheEntry>();
    if (
      this.fd === undefined &&
      held.size > 0 &&
      !ScanCacheWriter.anyNotReused(reader, roots) &&
      reader.journalFits(held.size)
    ) {
      this.append = true;
      return;
    }
    const placed = new Set<Place>(); // journal entries written where their files' earlier entries were
    const journal: Block[] = [];
    for (const block of reader.blocks) {
      if (block.journal) {
        journal.push(block); // after the blocks before it
        continue;
      }
      const folderUnder = block.folder === null ? undefined : underRoots(block.folder, "", roots);
      if (folderUnder === false) {
        this.copyRaw(reader, block); // another store's block, as it is (even unparsed)
        continue;
      }
      const parsed = reader.parse(block);
      if (!parsed) continue;
      const state = block.state!;
      this.copyBlock(reader, block, parsed, (i) => {
        const key = keyOf(block.folder, parsed.names[i]!);
        if (folderUnder === undefined && !underRoots(null, key, roots)) return COPY;
        if (state[i] === REUSED) return COPY;
        if (held.has(key)) return HELD;
        const latest = reader.latestOf(key);
        if (latest && latest.block.state![latest.entry] === REUSED) {
          placed.add(latest);
          return LATEST;
        }
        return DROP;
      });
      block.parsed = undefined;
    }
    // The journal's latest entries of files under `roots` that had no earlier entry (files new
    // then) go to their folders' blocks; other stores' stay a journal, after the journal's line.
    const latestOf = (block: Block, parsed: ParsedBlock, i: number) => {
      const latest = reader.latestOf(keyOf(block.folder, parsed.names[i]!));
      return latest?.block === block && latest.entry === i ? latest : undefined;
    };
    const others: Array<[Block, ParsedBlock]> = [];
    for (const block of journal) {
      const parsed = reader.parse(block);
      if (!parsed) continue;
      let other = false;
      this.copyToFolders(parsed, (i) => {
        const latest = latestOf(block, parsed, i);
        if (!latest) return DROP;
        if (!underRoots(block.folder, keyOf(block.folder, parsed.names[i]!), roots)) {
          other = true;
          return DROP;
        }
        return block.state![i] === REUSED && !placed.has(latest) ? COPY : DROP;
      });
      if (other) others.push([block, parsed]);
    }
    this.writeHeld();
    if (others.length > 0) {
      this.writeLine(JOURNAL);
      for (const [block, parsed] of others)
        this.copyBlock(reader, block, parsed, (i) =>
          latestOf(block, parsed, i) &&
          !underRoots(block.folder, keyOf(block.folder, parsed.names[i]!), roots)
            ? COPY
            : DROP,
        );
    }
  }

  /**
   * Whether a rewrite would drop something: an entry of a file under `roots` that was neither
   * reused nor replaced and for which no later entry stands (its file is gone, or could not be
   * read), or a damaged block.
   */
  static anyNotReused(reader: ScanCacheReader, roots: readonly string[]): boolean {
    for (const block of reader.blocks) {
      if (block.damaged) return true;
      const folderUnder = block.folder === null ? undefined : underRoots(block.folder, "", roots);
      if (folderUnder === false) continue; // another store's: it stays
      // Under `roots` and never parsed: of a folder the scan did not meet, its files not found.
      if (!block.state && (folderUnder || !reader.parse(block))) return true;
      const state = block.state!;
      for (let i = 0; i < state.length; i++) {
        const s = state[i];
        if (s === REUSED || s === REPLACED || s === STALE) continue;
        // Whole keys: which are under `roots` is per key.
        if (folderUnder === undefined && !underRoots(null, reader.parse(block)!.names[i]!, roots)) continue;
        if (s === UNSEEN && !block.journal && reader.superseded(block, i)) continue;
        return true;
      }
    }
    return false;
  }

  commit(): void {
    if (this.append) return this.appendJournal();
    this.writeHeld();
    this.flush();
    this.open();
    closeSync(this.fd!);
    this.fd = undefined;
    renameSync(this.temp, this.file);
  }

  abort(): void {
    this.block = undefined;
    this.held = undefined;
    this.append = false;
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.temp, { force: true });
  }

  /**
   * The held entries appended to the cache file in one write: a blank line (ends one an earlier
   * append may have left cut), the journal's line (again: harmless), their blocks. A file gone
   * meanwhile (`cache clear`) is not made again.
   */
  private appendJournal() {
    this.append = false;
    const held = this.held ?? new Map<string, CacheEntry>();
    this.held = new Map();
    // Blocks of whole keys (of no one folder): the changed files of many folders in a few blocks.
    const lines = ["", JOURNAL];
    let block = new BlockBuilder(null);
    for (const [key, entry] of held) {
      if (block.length === ENTRIES_PER_BLOCK) {
        lines.push(block.text());
        block = new BlockBuilder(null);
      }
      block.add(key, entry);
    }
    if (block.length > 0) lines.push(block.text());
    let fd: number;
    try {
      fd = openSync(this.file, constants.O_WRONLY | constants.O_APPEND);
    } catch {
      return;
    }
    try {
      writeSync(fd, `${lines.join("\n")}\n`);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * A block's entries as `what` says (`DROP`, `COPY`, `HELD`, `LATEST`). A block copied whole is
   * copied as bytes; another is written again as it was parsed, its changed entries replaced in
   * place, its dropped ones left out.
   */
  private copyBlock(reader: ScanCacheReader, block: Block, parsed: ParsedBlock, what: (i: number) => number) {
    const n = parsed.names.length;
    const kept: number[] = [];
    let changed = false;
    const cwdIndex = (cwd: string) => {
      const index = parsed.cwds.indexOf(cwd);
      return index === -1 ? parsed.cwds.push(cwd) - 1 : index;
    };
    for (let i = 0; i < n; i++) {
      const plan = what(i);
      if (plan === DROP) {
        changed = true;
        continue;
      }
      if (plan === HELD) {
        const key = keyOf(parsed.folder, parsed.names[i]!);
        const values = columnValues(this.held!.get(key)!, cwdIndex);
        for (let c = 0; c < values.length; c++) parsed.columns[c]![i] = values[c];
        this.held!.delete(key);
        changed = true;
      } else if (plan === LATEST) {
        const latest = reader.latestOf(keyOf(parsed.folder, parsed.names[i]!))!;
        const from = latest.block.parsed!; // a journal block: parsed when the reader was opened
        for (let c = 0; c < COLUMNS.length; c++)
          parsed.columns[c]![i] = valueIn(from, c, latest.entry, cwdIndex);
        changed = true;
      }
      kept.push(i);
    }
    if (!changed) return this.copyRaw(reader, block);
    if (kept.length === 0) return;
    const pick = <T>(values: T[]) => (kept.length === n ? values : kept.map((i) => values[i]!));
    this.writeLine(asciiJson([parsed.folder, parsed.cwds, pick(parsed.names), parsed.columns.map(pick)]));
  }

  /** The entries of a block of whole keys (a journal's) that `what` copies, each to its folder's block. */
  private copyToFolders(parsed: ParsedBlock, what: (i: number) => number) {
    for (let i = 0; i < parsed.names.length; i++) {
      if (what(i) !== COPY) continue;
      const [folder, name] = splitKey(keyOf(parsed.folder, parsed.names[i]!));
      this.blockFor(folder).copy(parsed, i, name);
    }
  }

  /** The held entries not written in place (files new to the cache), in the order they came. */
  private writeHeld() {
    const held = this.held;
    if (!held) return;
    this.held = new Map();
    for (const [key, entry] of held) {
      const [folder, name] = splitKey(key);
      this.blockFor(folder).add(name, entry);
    }
  }

  private copyRaw(reader: ScanCacheReader, block: Block) {
    this.writeLine(reader.text(block));
  }

  /** A block's line, after the block being built (so the order is kept). */
  private writeLine(text: string | Buffer) {
    this.flush();
    this.open();
    if (typeof text === "string") writeSync(this.fd!, text);
    else writeSync(this.fd!, text);
    writeSync(this.fd!, "\n");
  }

  private blockFor(folder: string | null): BlockBuilder {
    if (this.block && (this.block.folder !== folder || this.block.length === ENTRIES_PER_BLOCK)) this.flush();
    return (this.block ??= new BlockBuilder(folder));
  }

  private open() {
    if (this.fd !== undefined) return;
    ensurePrivateDir(dirname(this.file));
    this.fd = openSync(this.temp, "w", 0o600); // every session's path, cwd and name: private
    writeSync(this.fd, `${headerLine(this.roots)}\n`);
  }

  private flush() {
    const block = this.block;
    this.block = undefined;
    if (!block || block.length === 0) return;
    this.open();
    writeSync(this.fd!, `${block.text()}\n`);
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
