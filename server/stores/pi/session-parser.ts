// Streaming reader of pi session files: counts entries by type and role without ever holding a whole
// file (or a whole 50 MB line) in memory, and can resume where it stopped when a file is appended to.
//
// Reading is the expensive part of a scan (stat is cheap, reading is not: a 20,000-file store stats in ~0.16 s and reads in ~3 s), so lines are
// judged by their shape: pi writes `{"type":"<type>","id":…` with the message's `"role"` at a fixed
// offset (its ids and timestamps have fixed lengths), and comparing those few bytes is enough to count
// the line — a 50 MB tool result costs no more than a short one. Only the header, `session_info`
// lines (for the name), the first user message (for the title) and lines without pi's layout are parsed as JSON, up to `FULL_PARSE_CAP` bytes.
// The trade-off: a line is "corrupt" only if it is not `{…}`-shaped; damage inside a well-shaped
// line goes unnoticed, as it would cost a JSON parse of every byte (about 5× slower).

import { oneLine } from "../../../shared/session-title.js";
import { MAX_LINES } from "../read-caps.js";

/** Lines longer than this are counted, never parsed (`line-too-long`). */
export const FULL_PARSE_CAP = 1024 * 1024;
/** Bytes before the resume point kept to detect a file rewritten in place rather than appended to. */
export const TAIL_CHECK_BYTES = 64;
/** Header versions this reader knows. Newer ones are read the same way, with a warning. */
export const KNOWN_VERSIONS = [1, 2, 3] as const;

/** pi's first line, `{"type":"session","version":3,"id","timestamp","cwd","parentSession"?}`. */
export interface PiHeader {
  type: "session";
  id: string;
  timestamp: string;
  cwd: string;
  version?: number;
  parentSession?: string;
}

/**
 * Checks a parsed first line by hand rather than with zod: this runs on the scan path, and loading
 * zod alone costs more start-up time than a whole warm rescan may take.
 */
export function asPiHeader(value: unknown): PiHeader | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { type, id, timestamp, cwd, version, parentSession } = value as Record<string, unknown>;
  // What pi itself requires of a header: the type and an id. Old sessions have no cwd (pi shows "").
  if (type !== "session" || typeof id !== "string" || id === "") return undefined;
  if (version !== undefined && !Number.isInteger(version)) return undefined;
  if (parentSession !== undefined && typeof parentSession !== "string") return undefined;
  return {
    type,
    id,
    timestamp: typeof timestamp === "string" ? timestamp : "",
    cwd: typeof cwd === "string" ? cwd : "",
    ...(version !== undefined ? { version: version as number } : {}),
    ...(parentSession !== undefined ? { parentSession } : {}),
  };
}

interface LineProblem {
  first: number;
  count: number;
}

/** Everything learned from the complete lines of a file so far. Plain JSON: it is what the scan cache stores. */
export interface PiParseState {
  /** File offset just after the last complete line. Reading resumes here. */
  offset: number;
  /** Complete lines consumed, blank ones included (line numbers are 1-based). */
  lines: number;
  /** Whether the first non-blank line has been seen (it must be the header). */
  headerSeen: boolean;
  header: PiHeader | null;
  /** Entries after the header, every type (unknown types included). */
  entries: number;
  /** Message entries by role; roles other than these three count as `other`. */
  counts: { user: number; assistant: number; toolResult: number; other: number };
  /** Latest `session_info` name; `null` once a `session_info` cleared it. */
  name?: string | null;
  /** The first user message with text, as one short line (session-title.ts `oneLine`). */
  firstMessage?: string;
  /** Timestamp of the last entry (for `--precise` last-used times). */
  lastEntryAt?: string;
  corruptLines?: LineProblem;
  longLines?: LineProblem;
  /** `tailHash` of the (up to) `TAIL_CHECK_BYTES` bytes before `offset`. */
  tail: number;
}

export function createParseState(): PiParseState {
  return {
    offset: 0,
    lines: 0,
    headerSeen: false,
    header: null,
    entries: 0,
    counts: { user: 0, assistant: 0, toolResult: 0, other: 0 },
    tail: tailHash(),
  };
}

/** The complete picture of a file: the state of its complete lines plus its unterminated last line. */
export interface PiFileFacts extends PiParseState {
  /** The file does not end in a newline and its last line is not a complete JSON object. */
  truncatedLastLine: boolean;
}

// Bytes.
const NEWLINE = 10;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const QUOTE = 34;
const BACKSLASH = 92;

// Pieces of pi's line layout: `{"type":"message","id":"…","parentId":…,"timestamp":"…","message":{"role":"user"…`.
const TYPE_PREFIX = bytesOf('{"type":"');
const MESSAGE = bytesOf('message"');
const SESSION_INFO = bytesOf('session_info"');
const ID_KEY = bytesOf(',"id":"');
const PARENT_KEY = bytesOf('","parentId":');
const NULL = bytesOf("null");
const TIMESTAMP_AFTER_PARENT = bytesOf(',"timestamp":"');
const MESSAGE_ROLE = bytesOf('","message":{"role":"');
const USER = bytesOf('user"');
const ASSISTANT = bytesOf('assistant"');
const TOOL_RESULT = bytesOf('toolResult"');
const ROLE_KEY = Buffer.from('"role":"');
const TIMESTAMP_KEY = Buffer.from('"timestamp":"');
/** Offsets of the role value after `{"type":"message"` in pi's layout: parentId null, or 8 hex. */
const PI_ROLE_OFFSETS = [
  ',"id":"12345678","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"'.length,
  ',"id":"12345678","parentId":"12345678","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"'.length,
];
/** An entry's own timestamp: fourth in pi's order, second in v1 files. */
const STANDARD_ORDER =
  /^\{"type":"[^"\\]{1,64}","id":"[^"\\]{0,64}","parentId":(?:null|"[^"\\]{0,64}"),"timestamp":"([^"\\]{1,40})"/;
const V1_ORDER = /^\{"type":"[^"\\]{1,64}","timestamp":"([^"\\]{1,40})"/;
const CANONICAL_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

// Limits.
/** Bytes kept of a line that spans chunks when its prefix says it needs no JSON parse. */
const PREFIX_BYTES = 256;
/** How much of an entry's end to keep for its timestamp (custom entries write it last). */
const ENTRY_TAIL_BYTES = 64;

function bytesOf(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text));
}

const isSpace = (byte: number | undefined) => byte === 32 || byte === 9 || byte === 13;

/** Whether `buf` holds `expected` at `at` (before `end`). A JS loop: cheaper than a native call for a few bytes. */
function hasBytesAt(buf: Buffer, at: number, end: number, expected: Uint8Array): boolean {
  if (at + expected.length > end) return false;
  for (let i = 0; i < expected.length; i++) if (buf[at + i] !== expected[i]) return false;
  return true;
}

function addProblem(problem: LineProblem | undefined, line: number): LineProblem {
  if (!problem) return { first: line, count: 1 };
  problem.count += 1;
  return problem;
}

/** Reads a short `"…"` string value starting at `start`; undefined if it is long or escaped. */
function shortString(buf: Buffer, start: number, end: number, max: number): string | undefined {
  const limit = Math.min(end, start + max);
  for (let i = start; i < limit; i++) {
    const byte = buf[i];
    if (byte === QUOTE) return buf.toString("latin1", start, i);
    if (byte === BACKSLASH) return undefined;
  }
  return undefined;
}

function cloneState(state: PiParseState): PiParseState {
  const copy: PiParseState = {
    ...state,
    header: state.header ? { ...state.header } : null,
    counts: { ...state.counts },
  };
  if (state.corruptLines) copy.corruptLines = { ...state.corruptLines };
  if (state.longLines) copy.longLines = { ...state.longLines };
  return copy;
}

/** Index just after the closing quote of the short string starting at `at`, or -1. */
function skipString(buf: Buffer, at: number, end: number): number {
  const limit = Math.min(end, at + 64);
  for (let i = at; i < limit; i++) {
    const byte = buf[i];
    if (byte === QUOTE) return i + 1;
    if (byte === BACKSLASH) return -1;
  }
  return -1;
}

/**
 * Where the role value starts in a message line, walking pi's fixed layout
 * `,"id":"…","parentId":…,"timestamp":"…","message":{"role":"` from just after the type; -1 if
 * the line is laid out differently. A walk of known bytes is far cheaper than a substring search.
 */
function rolePosition(buf: Buffer, from: number, end: number): number {
  // Fast path: pi's ids are 8 hex characters and its timestamps 24, so with a null or an 8-hex
  // parentId the role sits at one of two fixed offsets; checking the 21 bytes before it suffices.
  for (const before of PI_ROLE_OFFSETS) {
    if (hasBytesAt(buf, from + before - MESSAGE_ROLE.length, end, MESSAGE_ROLE)) return from + before;
  }
  if (!hasBytesAt(buf, from, end, ID_KEY)) return -1;
  let at = skipString(buf, from + ID_KEY.length, end) - 1;
  if (at < 0 || !hasBytesAt(buf, at, end, PARENT_KEY)) return -1;
  at += PARENT_KEY.length;
  if (hasBytesAt(buf, at, end, NULL)) at += NULL.length;
  else if (buf[at] === QUOTE) at = skipString(buf, at + 1, end);
  else return -1;
  if (at < 0 || !hasBytesAt(buf, at, end, TIMESTAMP_AFTER_PARENT)) return -1;
  at = skipString(buf, at + TIMESTAMP_AFTER_PARENT.length, end) - 1;
  if (at < 0 || !hasBytesAt(buf, at, end, MESSAGE_ROLE)) return -1;
  return at + MESSAGE_ROLE.length;
}

/** What a line's first bytes say it is. Numbers, not objects: this runs for every line of every file. */
const enum Sniffed {
  /** Not pi's key order, a `session_info` (we need its name) or an unreadable role: parse as JSON. */
  NeedsParse,
  OtherEntry,
  User,
  Assistant,
  ToolResult,
  OtherRole,
}

/** Classifies the line `buf[s, e)` from its first bytes, without allocating. */
function sniff(buf: Buffer, s: number, e: number): Sniffed {
  if (!hasBytesAt(buf, s, e, TYPE_PREFIX)) return Sniffed.NeedsParse;
  const at = s + TYPE_PREFIX.length;
  if (hasBytesAt(buf, at, e, MESSAGE)) return sniffRole(buf, at + MESSAGE.length, e);
  if (hasBytesAt(buf, at, e, SESSION_INFO)) return Sniffed.NeedsParse;
  return skipString(buf, at, e) === -1 ? Sniffed.NeedsParse : Sniffed.OtherEntry;
}

/** The message's role: the three we count separately, another one, or unreadable. */
function sniffRole(buf: Buffer, from: number, end: number): Sniffed {
  let value = rolePosition(buf, from, end);
  if (value === -1) {
    const at = buf.indexOf(ROLE_KEY, from);
    if (at === -1 || at >= end) return Sniffed.NeedsParse;
    value = at + ROLE_KEY.length;
  }
  if (hasBytesAt(buf, value, end, USER)) return Sniffed.User;
  if (hasBytesAt(buf, value, end, ASSISTANT)) return Sniffed.Assistant;
  if (hasBytesAt(buf, value, end, TOOL_RESULT)) return Sniffed.ToolResult;
  return skipString(buf, value, end) === -1 ? Sniffed.NeedsParse : Sniffed.OtherRole;
}

/**
 * Consumes a file's bytes chunk by chunk. Feed it with `push` from `state.offset` on; `finish`
 * accounts for a last line without a newline without changing the resumable state. It takes at most
 * `MAX_LINES` lines (read-caps.ts): after them `full` is set and nothing more is read, so a file
 * read to the cap has `lines` at the cap and `offset` short of its size.
 */
export class PiSessionParser {
  readonly state: PiParseState;
  /** MAX_LINES lines are read and more came: the rest is not read. */
  full = false;
  /** Bytes of a line that started in an earlier chunk, up to `FULL_PARSE_CAP + 1`. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private pendingLength = 0;
  private pendingLastByte = -1;
  /** Once a pending line's first `PREFIX_BYTES` are in: whether the rest must be kept too. */
  private pendingNeedsAll: boolean | undefined;
  /** Copies of the last entry's first and last bytes: its timestamp is read once, in `finish`. */
  private lastEntryHead: Buffer | undefined;
  private lastEntryTail: Buffer | undefined;
  /** The last `TAIL_CHECK_BYTES` bytes seen (`recentLength` of them), to hash tails across chunk edges. */
  private readonly recent = Buffer.alloc(TAIL_CHECK_BYTES);
  private recentLength = 0;

  /** To resume, pass the saved state and the bytes just before its offset (as read from the file). */
  constructor(state?: PiParseState, precedingBytes?: Buffer) {
    this.state = state ? cloneState(state) : createParseState();
    // Resumed at the cap (the file grew): nothing more is read.
    this.full = this.state.lines >= MAX_LINES;
    if (precedingBytes) this.remember(precedingBytes, 0, precedingBytes.length);
  }

  /** Whether bytes after the last newline are waiting (the file does not end with a newline). */
  get hasUnterminatedLine(): boolean {
    return this.pendingLength > 0;
  }

  /** Feeds the next bytes of the file (the caller may reuse `chunk` afterwards). */
  push(chunk: Buffer): void {
    let pos = 0;
    let lastEntryStart = -1;
    let lastEntryEnd = -1;
    let lastNewline = -1;
    const size = chunk.length;
    while (pos < size) {
      if (this.state.lines >= MAX_LINES) {
        this.full = true;
        break;
      }
      const newline = chunk.indexOf(NEWLINE, pos);
      if (newline === -1) {
        this.keepPending(chunk, pos, size);
        break;
      }
      if (this.pendingLength > 0) {
        this.keepPending(chunk, pos, newline);
        const { line, length, lastByte } = this.takePending();
        if (this.line(line, 0, line.length, length, lastByte, false) === "entry") {
          this.keepLastEntry(line, 0, line.length);
          lastEntryStart = -1;
        }
      } else if (this.line(chunk, pos, newline, newline - pos, -1, false) === "entry") {
        lastEntryStart = pos;
        lastEntryEnd = newline;
      }
      lastNewline = newline;
      pos = newline + 1;
    }
    // Only the last entry's timestamp matters: keep a copy of its ends, read it once in `finish`.
    if (lastEntryStart !== -1) this.keepLastEntry(chunk, lastEntryStart, lastEntryEnd);
    if (lastNewline !== -1) this.state.tail = this.hashTailEndingAt(chunk, lastNewline + 1);
    const read = this.full ? pos : size; // what follows the line cap is not read
    this.remember(chunk, Math.max(0, read - TAIL_CHECK_BYTES), read);
  }

  /** The facts of the whole file, counting an unterminated last line if it is a complete object. */
  finish(): PiFileFacts {
    this.noteLastEntryTimestamp();
    const facts = { ...cloneState(this.state), truncatedLastLine: false };
    if (this.pendingLength === 0) return facts;
    const { line, length, lastByte } = this.takePending();
    const probe = new PiSessionParser(this.state);
    const verdict = probe.line(line, 0, line.length, length, lastByte, true);
    if (verdict === "bad") return { ...facts, truncatedLastLine: true };
    if (verdict === "entry") {
      probe.keepLastEntry(line, 0, line.length);
      probe.noteLastEntryTimestamp();
    }
    const { offset, lines, tail } = this.state;
    return { ...probe.state, offset, lines, tail, truncatedLastLine: false };
  }

  private keepPending(chunk: Buffer, start: number, end: number) {
    if (end <= start) return;
    this.pendingLength += end - start;
    let last = end - 1;
    while (last >= start && isSpace(chunk[last])) last -= 1;
    if (last >= start) this.pendingLastByte = chunk[last]!;
    // Keep the first PREFIX_BYTES; keep more (up to the cap) only if the prefix says the line will
    // have to be parsed: copying every long tool result would cost more than reading it.
    let from = start;
    while (from < end) {
      const limit = this.pendingNeedsAll ? FULL_PARSE_CAP + 1 : PREFIX_BYTES;
      const take = Math.min(end - from, limit - this.pendingBytes);
      if (take <= 0) break;
      this.pending.push(Buffer.from(chunk.subarray(from, from + take)));
      this.pendingBytes += take;
      from += take;
      if (this.pendingNeedsAll === undefined && this.pendingBytes >= PREFIX_BYTES) {
        this.pendingNeedsAll = this.prefixNeedsWholeLine();
      }
    }
  }

  private prefixNeedsWholeLine(): boolean {
    if (!this.state.headerSeen) return true;
    const prefix = Buffer.concat(this.pending, this.pendingBytes);
    let s = 0;
    while (s < prefix.length && isSpace(prefix[s])) s += 1;
    const sniffed = sniff(prefix, s, prefix.length);
    // The first user message is read for its text: once per file, whatever its length (up to the cap).
    return (
      sniffed === Sniffed.NeedsParse || (sniffed === Sniffed.User && this.state.firstMessage === undefined)
    );
  }

  private takePending() {
    const taken = {
      line: Buffer.concat(this.pending, this.pendingBytes),
      length: this.pendingLength,
      lastByte: this.pendingLastByte,
    };
    this.pending = [];
    this.pendingBytes = 0;
    this.pendingLength = 0;
    this.pendingLastByte = -1;
    this.pendingNeedsAll = undefined;
    return taken;
  }

  /**
   * Judges the line `buf[start, end)`. `length` is its full length: when it exceeds
   * `FULL_PARSE_CAP` only a prefix is held and `lastByte` is its last non-blank byte. A trailing
   * line (no newline after it) that is not a complete object is "bad", not a corrupt line.
   */
  private line(
    buf: Buffer,
    start: number,
    end: number,
    length: number,
    lastByte: number,
    trailing: boolean,
  ): "entry" | "header" | "blank" | "corrupt" | "bad" {
    const state = this.state;
    if (!trailing) {
      state.lines += 1;
      state.offset += length + 1;
    }
    const lineNo = trailing ? state.lines + 1 : state.lines;
    let s = start;
    let e = end;
    while (s < e && isSpace(buf[s])) s += 1;
    while (e > s && isSpace(buf[e - 1])) e -= 1;
    if (s === e) return "blank";
    /** Whether the whole line is held (a long line spanning chunks may be held as a prefix only). */
    const complete = end - start === length;

    if (!state.headerSeen) {
      state.headerSeen = true;
      if (complete && buf[s] === OPEN_BRACE) {
        const header = asPiHeader(tryJson(buf, s, e));
        if (header) {
          state.header = header;
          return "header";
        }
      }
      // Not a header: counted below as what it is. The record builder reports the missing header.
    }

    if (buf[s] !== OPEN_BRACE || (complete ? buf[e - 1] : lastByte) !== CLOSE_BRACE) {
      if (trailing) return "bad";
      state.corruptLines = addProblem(state.corruptLines, lineNo);
      return "corrupt";
    }

    // pi's own key order: `{"type":"<type>",…` and, for messages, `"role":"<role>"` soon after.
    let sniffed = trailing ? Sniffed.NeedsParse : sniff(buf, s, e);
    let parsed: Record<string, unknown> | undefined;
    if (sniffed === Sniffed.NeedsParse) {
      if (!complete) {
        if (trailing) return "bad";
        state.longLines = addProblem(state.longLines, lineNo);
        sniffed = Sniffed.OtherEntry;
      } else {
        const value = tryJson(buf, s, e);
        if (typeof value !== "object" || value === null || Array.isArray(value)) {
          if (trailing) return "bad";
          state.corruptLines = addProblem(state.corruptLines, lineNo);
          return "corrupt";
        }
        parsed = value as Record<string, unknown>;
        sniffed = parsed.type === "message" ? roleOf(parsed) : Sniffed.OtherEntry;
      }
    }

    state.entries += 1;
    const counts = state.counts;
    if (sniffed === Sniffed.User && state.firstMessage === undefined && complete) {
      // Only until one is found: the other user lines stay unparsed (a few per session, not thousands).
      parsed ??= asObject(tryJson(buf, s, e));
      const text = parsed && userText(parsed.message);
      if (text) state.firstMessage = text;
    }
    if (sniffed === Sniffed.User) counts.user += 1;
    else if (sniffed === Sniffed.Assistant) counts.assistant += 1;
    else if (sniffed === Sniffed.ToolResult) counts.toolResult += 1;
    else if (sniffed === Sniffed.OtherRole) counts.other += 1;
    else if (parsed?.type === "session_info") {
      // As pi: the latest session_info wins, and an empty or missing name clears it.
      const name = typeof parsed.name === "string" ? parsed.name.trim() : "";
      state.name = name || null;
    }
    return "entry";
  }

  /** Copies the first and last bytes of the latest entry line (the chunk they are in is reused). */
  private keepLastEntry(buf: Buffer, start: number, end: number) {
    this.lastEntryHead = Buffer.from(buf.subarray(start, Math.min(end, start + PREFIX_BYTES)));
    this.lastEntryTail = Buffer.from(buf.subarray(Math.max(start, end - ENTRY_TAIL_BYTES), end));
  }

  /**
   * The last entry's own timestamp. pi writes it fourth (`type, id, parentId, timestamp`; v1
   * entries: second), before any payload that may hold other "timestamp" keys; `custom` and
   * `custom_message` entries write it last, after their payload.
   */
  private noteLastEntryTimestamp() {
    const head = this.lastEntryHead;
    const tail = this.lastEntryTail;
    if (!head || !tail) return;
    this.lastEntryHead = this.lastEntryTail = undefined;
    const text = head.toString("latin1");
    let value = (STANDARD_ORDER.exec(text) ?? V1_ORDER.exec(text))?.[1];
    if (value === undefined) {
      const at = tail.lastIndexOf(TIMESTAMP_KEY);
      if (at !== -1) value = shortString(tail, at + TIMESTAMP_KEY.length, tail.length, 40);
    }
    const iso = value === undefined ? undefined : normalizeTimestamp(value);
    if (iso) this.state.lastEntryAt = iso;
  }

  /** Hash of the `TAIL_CHECK_BYTES` bytes before `end` in `chunk`, taking earlier chunks' bytes if needed. */
  private hashTailEndingAt(chunk: Buffer, end: number): number {
    const fromChunk = Math.min(end, TAIL_CHECK_BYTES);
    const fromRecent = Math.min(this.recentLength, TAIL_CHECK_BYTES - fromChunk);
    return tailHash(
      this.recent.subarray(this.recentLength - fromRecent, this.recentLength),
      chunk.subarray(end - fromChunk, end),
    );
  }

  /** Appends `bytes[start, end)` to the window of the last `TAIL_CHECK_BYTES` bytes seen. */
  private remember(bytes: Buffer, start: number, end: number) {
    const incoming = end - start;
    if (incoming >= TAIL_CHECK_BYTES) {
      bytes.copy(this.recent, 0, end - TAIL_CHECK_BYTES, end);
      this.recentLength = TAIL_CHECK_BYTES;
      return;
    }
    const keep = Math.min(this.recentLength, TAIL_CHECK_BYTES - incoming);
    this.recent.copy(this.recent, 0, this.recentLength - keep, this.recentLength);
    bytes.copy(this.recent, keep, start, end);
    this.recentLength = keep + incoming;
  }
}

/**
 * FNV-1a (32 bit) of the bytes before the resume point. A number keeps the cache small; it only has
 * to tell "appended to" from "rewritten in place", together with the inode and the larger size.
 */
export function tailHash(...parts: Buffer[]): number {
  let length = 0;
  for (const part of parts) length += part.length;
  let hash = 0x811c9dc5 ^ length;
  for (const part of parts)
    for (let i = 0; i < part.length; i++) hash = Math.imul(hash ^ part[i]!, 0x01000193);
  return hash >>> 0;
}

/**
 * A timestamp as canonical ISO-8601 UTC, or undefined if it is not a date. pi writes
 * `Date#toISOString()`, so the (slow) parse and re-format are only for other forms.
 */
export function normalizeTimestamp(value: string): string | undefined {
  if (CANONICAL_ISO.test(value)) return value;
  return Number.isNaN(Date.parse(value)) ? undefined : new Date(value).toISOString();
}

function roleOf(parsed: Record<string, unknown>): Sniffed {
  const role = (parsed.message as { role?: unknown } | undefined)?.role;
  return role === "user"
    ? Sniffed.User
    : role === "assistant"
      ? Sniffed.Assistant
      : role === "toolResult"
        ? Sniffed.ToolResult
        : Sniffed.OtherRole;
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * A user message's text as pi's picker takes it (a string, or its text blocks joined by a space),
 * as one short line; undefined when it has none (an image alone).
 */
function userText(message: unknown): string | undefined {
  const content = (message as { content?: unknown } | undefined)?.content;
  if (typeof content === "string") return oneLine(content);
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  for (const block of content as unknown[]) {
    const { type, text } = (block ?? {}) as { type?: unknown; text?: unknown };
    if (type === "text" && typeof text === "string") texts.push(text);
  }
  return oneLine(texts.join(" "));
}

function tryJson(buf: Buffer, start: number, end: number): unknown {
  try {
    return JSON.parse(buf.toString("utf8", start, end));
  } catch {
    return undefined;
  }
}
