// Reads one pi session file into PiFileFacts, from the start or from where an earlier read stopped.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { type PiFileFacts, type PiParseState, PiSessionParser, TAIL_CHECK_BYTES } from "./session-parser.js";

/** One buffer reused by every read of a scan: big enough that a file is a few syscalls. */
export const READ_CHUNK_BYTES = 1024 * 1024;

export interface FileIdentity {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
}

export interface ReadResult {
  facts: PiFileFacts;
  /** The resumable state (differs from `facts` only when the last line has no newline). */
  resume: PiParseState;
  /** Identity of the file as read (fstat of the open descriptor). */
  identity: FileIdentity;
  bytesRead: number;
  /** Whether an earlier state was continued (appended file) rather than read from the start. */
  resumed: boolean;
}

function sameBytes(
  fd: number,
  buffer: Buffer,
  at: number,
  expectedHex: string,
): { ok: boolean; read: number } {
  const length = expectedHex.length / 2;
  if (length === 0 || at < length) return { ok: length === 0 && at === 0, read: 0 };
  const read = readSync(fd, buffer, 0, length, at - length);
  return { ok: read === length && buffer.toString("hex", 0, length) === expectedHex, read };
}

/**
 * Opens without following symlinks, reads up to the size fstat reports (a file pi appends to while
 * we read is read as it was), and resumes `previous` when its tail bytes are still in place.
 */
export function readSessionFile(
  fsPath: string | Buffer,
  buffer: Buffer,
  previous?: PiParseState,
): ReadResult {
  const fd = openSync(fsPath, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const stat = fstatSync(fd, { bigint: true });
    const identity = { dev: stat.dev, ino: stat.ino, size: stat.size, mtimeNs: stat.mtimeNs };
    const size = Number(stat.size);
    let bytesRead = 0;
    let resumed = false;
    let parser = new PiSessionParser();
    if (previous && previous.offset <= size && previous.tail.length <= TAIL_CHECK_BYTES * 2) {
      const check = sameBytes(fd, buffer, previous.offset, previous.tail);
      bytesRead += check.read;
      if (check.ok) {
        parser = new PiSessionParser(previous);
        resumed = true;
      }
    }
    let position = parser.state.offset;
    while (position < size) {
      const read = readSync(fd, buffer, 0, Math.min(buffer.length, size - position), position);
      if (read === 0) break; // truncated while we read: what we have is what there is
      bytesRead += read;
      position += read;
      parser.push(buffer.subarray(0, read));
    }
    return { facts: parser.finish(), resume: parser.state, identity, bytesRead, resumed };
  } finally {
    closeSync(fd);
  }
}
