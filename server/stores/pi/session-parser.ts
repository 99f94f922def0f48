// Streaming reader of pi session files: counts entries by type and role without ever holding a whole
// file (or a whole 50 MB line) in memory, and can resume where it stopped when a file is appended to.
//
// Reading is the expensive part of a scan (FACTS.md: stat is cheap, reading is not), so lines are
// judged by their shape: pi writes `{"type":"<type>","id":…` with the message's `"role"` a few bytes
// later, and that prefix is enough to count the line. Only the header, `session_info` lines (for the
// name) and lines without pi's key order are parsed as JSON, and only up to `FULL_PARSE_CAP` bytes.

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
  if (type !== "session" || typeof id !== "string" || id === "" || typeof timestamp !== "string")
    return undefined;
  if (typeof cwd !== "string") return undefined;
  if (version !== undefined && !Number.isInteger(version)) return undefined;
  if (parentSession !== undefined && typeof parentSession !== "string") return undefined;
  return {
    type,
    id,
    timestamp,
    cwd,
    ...(version !== undefined ? { version: version as number } : {}),
    ...(parentSession !== undefined ? { parentSession } : {}),
  };
}

type LineVerdict = "entry" | "header" | "blank" | "corrupt" | "bad";

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
    tail: tailHash(Buffer.alloc(0)),
  };
}

/** The complete picture of a file: the state of its complete lines plus its unterminated last line. */
export interface PiFileFacts extends PiParseState {
  /** The file does not end in a newline and its last line is not a complete JSON object. */
  truncatedLastLine: boolean;
}

const NEWLINE = 10;
const TYPE_PREFIX = Buffer.from('{"type":"');
const ROLE_KEY = Buffer.from('"role":"');
const TIMESTAMP_KEY = Buffer.from('"timestamp":"');
const QUOTE = 34;
const BACKSLASH = 92;

const isSpace = (byte: number | undefined) => byte === 32 || byte === 9 || byte === 13;

function addProblem(problem: LineProblem | undefined, line: number): LineProblem {
  if (!problem) return { first: line, count: 1 };
  problem.count += 1;
  return problem;
}

/** Reads a short `"…"` string value starting at `start`; undefined if it is long or escaped. */
function shortString(buf: Buffer, start: number, end: number, max = 64): string | undefined {
  const close = buf.indexOf(QUOTE, start);
  if (close === -1 || close >= end || close - start > max) return undefined;
  const backslash = buf.indexOf(BACKSLASH, start);
  if (backslash !== -1 && backslash < close) return undefined;
  return buf.toString("latin1", start, close);
}

function countRole(state: PiParseState, role: unknown) {
  if (role === "user" || role === "assistant" || role === "toolResult") state.counts[role] += 1;
  else state.counts.other += 1;
}

/**
 * Consumes a file's bytes chunk by chunk. Feed it with `push` from `state.offset` on; `finish`
 * accounts for a last line without a newline without changing the resumable state.
 */
export class PiSessionParser {
  readonly state: PiParseState;
  /** Bytes of a line that started in an earlier chunk, up to `FULL_PARSE_CAP`. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private pendingLength = 0;
  private pendingLastByte = -1;
  /** The last `TAIL_CHECK_BYTES` bytes pushed so far (to compute `state.tail` across chunk edges). */
  private recent = Buffer.alloc(0);

  /** To resume, pass the saved state and the bytes just before its offset (as `tailBytes` reads them). */
  constructor(state: PiParseState = createParseState(), precedingBytes: Buffer = Buffer.alloc(0)) {
    this.state = structuredClone(state);
    this.recent = Buffer.from(precedingBytes);
  }

  /** Feeds the next bytes of the file (the caller reuses `chunk` afterwards). */
  push(chunk: Buffer): void {
    let pos = 0;
    let lastEntry: { start: number; end: number } | undefined;
    let lastNewline = -1;
    while (pos < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, pos);
      if (newline === -1) {
        this.keepPending(chunk, pos, chunk.length);
        break;
      }
      if (this.pendingLength > 0) {
        this.keepPending(chunk, pos, newline);
        const { line, length, lastByte } = this.takePending();
        this.line(line, length, lastByte, false);
      } else if (this.line(chunk.subarray(pos, newline), newline - pos, undefined, false) === "entry") {
        lastEntry = { start: pos, end: newline };
      }
      lastNewline = newline;
      pos = newline + 1;
    }
    if (lastEntry) this.noteTimestamp(chunk, lastEntry.start, lastEntry.end);
    this.rememberTail(chunk, lastNewline);
  }

  /** The facts of the whole file, counting an unterminated last line if it is a complete object. */
  finish(): PiFileFacts {
    if (this.pendingLength === 0) return { ...structuredClone(this.state), truncatedLastLine: false };
    const { line, length, lastByte } = this.takePending();
    const probe = new PiSessionParser(this.state, this.recent);
    const verdict = probe.line(line, length, lastByte, true);
    if (verdict === "bad") return { ...structuredClone(this.state), truncatedLastLine: true };
    if (verdict === "entry") probe.noteTimestamp(line, 0, line.length);
    const { offset, lines, tail } = this.state;
    return { ...probe.state, offset, lines, tail, truncatedLastLine: false };
  }

  private keepPending(chunk: Buffer, start: number, end: number) {
    if (end <= start) return;
    this.pendingLength += end - start;
    let last = end - 1;
    while (last >= start && isSpace(chunk[last])) last -= 1;
    if (last >= start) this.pendingLastByte = chunk[last]!;
    const room = FULL_PARSE_CAP + 1 - this.pendingBytes;
    if (room > 0) {
      const piece = Buffer.from(chunk.subarray(start, Math.min(end, start + room)));
      this.pending.push(piece);
      this.pendingBytes += piece.length;
    }
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
    return taken;
  }

  /**
   * Judges one line: `buf` holds it whole, or its first `FULL_PARSE_CAP + 1` bytes when `length` is
   * larger (then `lastByte` is its last non-blank byte). A trailing line (no newline after it) that
   * is not a complete object is reported as "bad" rather than counted as a corrupt line.
   */
  private line(buf: Buffer, length: number, lastByte: number | undefined, trailing: boolean): LineVerdict {
    const state = this.state;
    if (!trailing) {
      state.lines += 1;
      state.offset += length + 1;
    }
    const lineNo = state.lines + (trailing ? 1 : 0);
    let s = 0;
    let e = buf.length;
    while (s < e && isSpace(buf[s])) s += 1;
    while (e > s && isSpace(buf[e - 1])) e -= 1;
    if (s === e) return "blank";
    const complete = length <= FULL_PARSE_CAP;
    const last = complete ? buf[e - 1] : lastByte;

    if (!state.headerSeen) {
      state.headerSeen = true;
      if (complete && buf[s] === 123) {
        const header = asPiHeader(tryJson(buf, s, e));
        if (header) {
          state.header = header;
          return "header";
        }
      }
      // Not a header: counted below as what it is. The record builder reports the missing header.
    }

    if (buf[s] !== 123 || last !== 125) {
      if (trailing) return "bad";
      state.corruptLines = addProblem(state.corruptLines, lineNo);
      return "corrupt";
    }
    let type: string | undefined;
    let role: string | undefined;
    let parsed: Record<string, unknown> | undefined;
    if (buf.compare(TYPE_PREFIX, 0, TYPE_PREFIX.length, s, s + TYPE_PREFIX.length) === 0) {
      type = shortString(buf, s + TYPE_PREFIX.length, e);
    }
    if (type === "message") {
      const at = buf.indexOf(ROLE_KEY, s);
      if (at !== -1 && at < e) role = shortString(buf, at + ROLE_KEY.length, e);
    }
    const needsParse = type === undefined || type === "session_info" || (type === "message" && !role);
    if (needsParse || trailing) {
      if (!complete) {
        if (trailing) return "bad";
        state.longLines = addProblem(state.longLines, lineNo);
      } else {
        const value = tryJson(buf, s, e);
        if (typeof value !== "object" || value === null || Array.isArray(value)) {
          if (trailing) return "bad";
          state.corruptLines = addProblem(state.corruptLines, lineNo);
          return "corrupt";
        }
        parsed = value as Record<string, unknown>;
        type = typeof parsed.type === "string" ? parsed.type : undefined;
        const message = parsed.message as { role?: unknown } | undefined;
        role = typeof message?.role === "string" ? message.role : undefined;
      }
    }
    state.entries += 1;
    if (type === "message") countRole(state, role);
    else if (type === "session_info" && parsed) {
      // As pi: the latest session_info wins, and an empty or missing name clears it.
      const name = typeof parsed.name === "string" ? parsed.name.trim() : "";
      state.name = name || null;
    }
    return "entry";
  }

  private noteTimestamp(buf: Buffer, start: number, end: number) {
    const at = buf.indexOf(TIMESTAMP_KEY, start);
    if (at === -1 || at >= end) return;
    const value = shortString(buf, at + TIMESTAMP_KEY.length, end, 40);
    if (value && !Number.isNaN(Date.parse(value))) this.state.lastEntryAt = new Date(value).toISOString();
  }

  /** Keeps `state.tail` = hash of the bytes just before `state.offset`, across chunk boundaries. */
  private rememberTail(chunk: Buffer, lastNewline: number) {
    if (lastNewline !== -1) {
      const end = lastNewline + 1;
      const fromChunk = chunk.subarray(Math.max(0, end - TAIL_CHECK_BYTES), end);
      const fromBefore = this.recent.subarray(
        Math.max(0, this.recent.length - (TAIL_CHECK_BYTES - fromChunk.length)),
      );
      this.state.tail = tailHash(Buffer.concat([fromBefore, fromChunk]));
    }
    const keep = chunk.subarray(Math.max(0, chunk.length - TAIL_CHECK_BYTES));
    this.recent = Buffer.from(
      Buffer.concat([this.recent, keep]).subarray(
        Math.max(0, this.recent.length + keep.length - TAIL_CHECK_BYTES),
      ),
    );
  }
}

/**
 * FNV-1a (32 bit) of the bytes before the resume point. A number keeps the cache small; it only has
 * to tell "appended to" from "rewritten in place", together with the inode and the larger size.
 */
export function tailHash(bytes: Buffer): number {
  let hash = 0x811c9dc5 ^ bytes.length;
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 0x01000193);
  return hash >>> 0;
}

function tryJson(buf: Buffer, start: number, end: number): unknown {
  try {
    return JSON.parse(buf.toString("utf8", start, end));
  } catch {
    return undefined;
  }
}
