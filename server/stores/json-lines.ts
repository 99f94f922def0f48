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
 * Reads the file line by line into `reader`, never through a symlink nor from anything but a
 * regular file, up to the size it had when opened and to MAX_LINES lines.
 */
export function readJsonLines(path: string, reader: LineReader): JsonLinesRead {
  const { fd, identity } = openRegularFile(path);
  try {
    const cap = reader.parseCap;
    /** Lines handed over (blank ones included) and their bytes. */
    let lines = 0;
    let bytes = 0;
    const buffer = Buffer.allocUnsafe(CHUNK);
    /** The pieces of the line being read, while it is under the cap; past it, its two ends. */
    let pending: Buffer[] = [];
    let pendingLength = 0;
    let head = Buffer.alloc(0);
    let tail = Buffer.alloc(0);
    const endLine = () => {
      lines += 1;
      bytes += pendingLength;
      if (pendingLength > cap) reader.longLine(head.toString("utf8"), tail.toString("utf8"));
      else reader.line(Buffer.concat(pending, pendingLength).toString("utf8"));
      pending = [];
      pendingLength = 0;
    };
    const keep = (bytes: Buffer) => {
      const wasLong = pendingLength > cap;
      pendingLength += bytes.length;
      if (!wasLong) {
        pending.push(Buffer.from(bytes));
        if (pendingLength <= cap) return;
        // Past the cap: keep only its two ends from now on.
        const whole = Buffer.concat(pending);
        head = Buffer.from(whole.subarray(0, LONG_LINE_END));
        tail = Buffer.from(whole.subarray(-LONG_LINE_END));
        pending = [];
      } else tail = Buffer.from(Buffer.concat([tail, bytes]).subarray(-LONG_LINE_END));
    };
    for (let position = 0; position < identity.size;) {
      const read = readSync(fd, buffer, 0, Math.min(CHUNK, identity.size - position), position);
      if (read === 0) break;
      position += read;
      let start = 0;
      for (
        let newline = buffer.indexOf(10, 0);
        newline !== -1 && newline < read;
        newline = buffer.indexOf(10, start)
      ) {
        if (lines === MAX_LINES) return { identity, capped: { cap: "lines", lines, bytes } };
        // Most lines start and end in one chunk: decoded from it in place, no copy (copying each
        // line first cost about a tenth of a cold Claude Code scan in bench/claude-bench.ts).
        if (pendingLength === 0 && newline - start <= cap) {
          lines += 1;
          bytes += newline - start + 1;
          reader.line(buffer.toString("utf8", start, newline));
        } else {
          keep(buffer.subarray(start, newline));
          bytes += 1; // its newline
          endLine();
        }
        start = newline + 1;
      }
      if (start < read) {
        if (lines === MAX_LINES) return { identity, capped: { cap: "lines", lines, bytes } };
        keep(buffer.subarray(start, read));
      }
    }
    if (pendingLength > 0) endLine();
    return { identity };
  } finally {
    closeSync(fd);
  }
}
