// Reads a JSON-lines file an agent appends to, streaming, without following a symlink, up to the
// size it had when opened (an agent writing meanwhile is read as it was). A line up to a cap is
// handed over whole; a longer one (a pasted image, a whole conversation in one record) only by its
// two ends, so no line is ever held whole past the cap. Claude Code's transcripts and Gemini CLI's
// chats are read through it; what a line means is the caller's business.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { type FileIdentity, identityOf } from "../fs/file-identity.js";

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

/** Reads the file line by line into `reader`; the identity is the file's as it was opened. */
export function readJsonLines(path: string, reader: LineReader): FileIdentity {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd, { bigint: true });
    if (!stat.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: "EINVAL" });
    const identity = identityOf(stat);
    const cap = reader.parseCap;
    const buffer = Buffer.allocUnsafe(CHUNK);
    /** The pieces of the line being read, while it is under the cap; past it, its two ends. */
    let pending: Buffer[] = [];
    let pendingLength = 0;
    let head = Buffer.alloc(0);
    let tail = Buffer.alloc(0);
    const endLine = () => {
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
        // Most lines start and end in one chunk: decoded from it in place, no copy (copying each
        // line first cost about a tenth of a cold Claude Code scan in bench/claude-bench.ts).
        if (pendingLength === 0 && newline - start <= cap)
          reader.line(buffer.toString("utf8", start, newline));
        else {
          keep(buffer.subarray(start, newline));
          endLine();
        }
        start = newline + 1;
      }
      if (start < read) keep(buffer.subarray(start, read));
    }
    if (pendingLength > 0) endLine();
    return identity;
  } finally {
    closeSync(fd);
  }
}
