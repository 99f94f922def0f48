// Reads a JSON-lines file an agent appends to, streaming, without following a symlink, up to the
// size it had when opened (an agent writing meanwhile is read as it was). A line up to a cap is
// handed over whole; a longer one (a pasted image, a whole conversation in one record) only by its
// two ends, so no line is ever held whole past the cap; and no more than MAX_LINES lines
// (read-caps.ts). Claude Code's transcripts and Gemini CLI's chats are read through it; what a line
// means is the caller's business.
import { closeSync, readSync } from "node:fs";
import type { FileIdentity } from "../fs/file-identity.js";
import { openRegularFile } from "../fs/open-regular-file.js";
import { MAX_LINES, type ReadCap } from "./read-caps.js";

const CHUNK = 256 * 1024;
/** Of a line past the cap, this much of each end is kept. */
const LONG_LINE_END = 4096;

export interface LineReader {
  /** Lines longer than this many bytes go to `longLine`. */
  parseCap: number;
  /** A line up to the cap, without its newline (blank lines included). */
  line: (text: string) => void;
  /** A line past the cap: its first and last few KiB. */
  longLine: (head: string, tail: string) => void;
}

export interface JsonLinesRead {
  /** The file as it was opened. */
  identity: FileIdentity;
  /** Reading stopped after MAX_LINES lines: the lines after them were not handed over. */
  capped?: ReadCap;
}

/**
 * Cuts a file's chunks into lines for a `LineReader`, keeping of a line past its cap only the two
 * ends, and no more than MAX_LINES lines. The same cutting for a scan's read and a detail's.
 */
class LineSplitter {
  /** Lines handed over (blank ones included) and their bytes. */
  private lines = 0;
  private bytes = 0;
  /** The pieces of the line being read, while it is under the cap; past it, its two ends. */
  private pending: Buffer[] = [];
  private pendingLength = 0;
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);

  constructor(private readonly reader: LineReader) {}

  /** The cap, once MAX_LINES lines were handed over: then no more are. */
  get capped(): ReadCap | undefined {
    return this.lines === MAX_LINES ? { cap: "lines", lines: this.lines, bytes: this.bytes } : undefined;
  }

  /** Hands over the lines of `buffer`'s first `read` bytes; false once the line cap is reached. */
  take(buffer: Buffer, read: number): boolean {
    const reader = this.reader;
    const cap = reader.parseCap;
    let start = 0;
    for (
      let newline = buffer.indexOf(10, 0);
      newline !== -1 && newline < read;
      newline = buffer.indexOf(10, start)
    ) {
      if (this.lines === MAX_LINES) return false;
      // Most lines start and end in one chunk: decoded from it in place, no copy (copying each
      // line first cost about a tenth of a cold Claude Code scan in bench/claude-bench.ts).
      if (this.pendingLength === 0 && newline - start <= cap) {
        this.lines += 1;
        this.bytes += newline - start + 1;
        reader.line(buffer.toString("utf8", start, newline));
      } else {
        this.keep(buffer.subarray(start, newline));
        this.bytes += 1; // its newline
        this.endLine();
      }
      start = newline + 1;
    }
    if (start < read) {
      if (this.lines === MAX_LINES) return false;
      this.keep(buffer.subarray(start, read));
    }
    return true;
  }

  /** The file's end: its last line, when it has no newline. */
  end() {
    if (this.pendingLength > 0 && this.lines < MAX_LINES) this.endLine();
  }

  private endLine() {
    this.lines += 1;
    this.bytes += this.pendingLength;
    if (this.pendingLength > this.reader.parseCap)
      this.reader.longLine(this.head.toString("utf8"), this.tail.toString("utf8"));
    else this.reader.line(Buffer.concat(this.pending, this.pendingLength).toString("utf8"));
    this.pending = [];
    this.pendingLength = 0;
  }

  private keep(bytes: Buffer) {
    const cap = this.reader.parseCap;
    const wasLong = this.pendingLength > cap;
    this.pendingLength += bytes.length;
    if (!wasLong) {
      this.pending.push(Buffer.from(bytes));
      if (this.pendingLength <= cap) return;
      // Past the cap: keep only its two ends from now on.
      const whole = Buffer.concat(this.pending);
      this.head = Buffer.from(whole.subarray(0, LONG_LINE_END));
      this.tail = Buffer.from(whole.subarray(-LONG_LINE_END));
      this.pending = [];
    } else this.tail = Buffer.from(Buffer.concat([this.tail, bytes]).subarray(-LONG_LINE_END));
  }
}

/**
 * Reads the file line by line into `reader`, never through a symlink nor from anything but a
 * regular file, up to the size it had when opened and to MAX_LINES lines.
 */
export function readJsonLines(path: string, reader: LineReader): JsonLinesRead {
  const { fd, identity } = openRegularFile(path);
  try {
    return { identity, ...readLines(fd, identity.size, new LineSplitter(reader)) };
  } finally {
    closeSync(fd);
  }
}

function readLines(fd: number, size: number, lines: LineSplitter): { capped?: ReadCap } {
  const buffer = Buffer.allocUnsafe(CHUNK);
  for (let position = 0; position < size;) {
    const read = readSync(fd, buffer, 0, Math.min(CHUNK, size - position), position);
    if (read === 0) break;
    position += read;
    if (!lines.take(buffer, read)) return { capped: lines.capped! };
  }
  lines.end();
  return {};
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * As `readJsonLines`, of an open file `fd` up to `size` bytes (what a look measured of it, not what
 * was appended since), letting the server answer other requests between chunks: for a session's
 * detail, read while the dashboard waits. The caller opens the file (`openRecorded`) and closes it.
 */
export async function readJsonLinesAsync(
  fd: number,
  size: number,
  reader: LineReader,
): Promise<{ capped?: ReadCap }> {
  const lines = new LineSplitter(reader);
  const buffer = Buffer.allocUnsafe(CHUNK);
  for (let position = 0; position < size;) {
    const read = readSync(fd, buffer, 0, Math.min(CHUNK, size - position), position);
    if (read === 0) break; // cut short since the look: what is there is what there is
    position += read;
    if (!lines.take(buffer, read)) return { capped: lines.capped! };
    await nextTurn();
  }
  lines.end();
  return {};
}
