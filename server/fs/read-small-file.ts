// Reading the small files that decide what we do — the config, pi's settings.json, the pins, the
// active-session markers, server.json — so that no file there can hang us, fill memory or be
// misread: only a regular file is read (a FIFO blocks forever, /dev/zero never ends), at most a cap
// of bytes, and only strict UTF-8 (a byte silently replaced by U+FFFD could make a protected
// pattern protect nothing).
import { isUtf8 } from "node:buffer";
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from "node:fs";
import { formatBytes } from "../../shared/format.js";
import { UserError } from "../errors.js";
import { notRegular } from "./open-regular-file.js";

/** The cap for the config file and pi's settings.json: far more than any hand-written file needs. */
export const CONFIG_MAX_BYTES = 1024 * 1024;

export interface SmallFileOptions {
  /** More than this many bytes is an error (a size, not a reason to read a prefix). */
  maxBytes: number;
  /** What the file is, for the message: "config file", "protection list"… */
  what: string;
  /** Refuse a symlink (a file inside a session folder, which must not lead out of it). Default false. */
  noFollow?: boolean;
}

/** The file cannot be used as it is; the message says what it is and what is wrong. */
export class UnreadableFileError extends UserError {
  override name = "UnreadableFileError";
  constructor(
    readonly path: string,
    what: string,
    /** What is wrong, said after the file's name: "is a named pipe (FIFO), not a regular file". */
    readonly problem: string,
    /** The system's code (ENOENT, EACCES…) when opening or reading failed, so callers can tell absent from broken. */
    readonly code?: string,
  ) {
    super(`${what} ${path} ${problem}`);
  }
}

const notRegularProblem = (kind: string) =>
  `is ${kind}, not a regular file; only a regular file (or a symlink to one) is read`;

/** For the message only, after the open failed: what is at `path`. */
function kindAt(path: string): string | undefined {
  try {
    return notRegular(statSync(path));
  } catch {
    return undefined;
  }
}

const sizeInWords = (bytes: number) => `${formatBytes(bytes)} (${bytes} bytes)`;

/**
 * The text of a small file. A symlink to a regular file is fine (dotfile managers link configs);
 * the type is checked on what was opened, so nothing can swap the file between a check and the open.
 * Throws `UnreadableFileError` for everything else, with `code` "ENOENT" when there is no file.
 */
export function readSmallTextFile(path: string, { maxBytes, what, noFollow }: SmallFileOptions): string {
  const fail = (problem: string, code?: string) => new UnreadableFileError(path, what, problem, code);
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO that has no writer would otherwise wait for one, forever.
    // O_NOCTTY: a terminal named here must not become our controlling terminal.
    fd = openSync(
      path,
      constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | (noFollow ? constants.O_NOFOLLOW : 0),
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw fail("does not exist", code);
    if (code === "ELOOP" && noFollow) throw fail("is a symlink; not followed", code);
    // open() refuses a Unix socket with ENXIO, which says nothing to a reader: name what it is.
    const kind = code === "ENXIO" ? kindAt(path) : undefined;
    throw fail(kind ? notRegularProblem(kind) : `cannot be read: ${(error as Error).message}`, code);
  }
  let bytes: Buffer;
  try {
    const stat = fstatSync(fd);
    const kind = notRegular(stat);
    if (kind) throw fail(notRegularProblem(kind));
    if (stat.size > maxBytes)
      throw fail(`is ${sizeInWords(stat.size)}, over the limit of ${sizeInWords(maxBytes)}`);
    bytes = readAtMost(fd, maxBytes + 1, stat.size);
    // Still possible after the size check: the file grew while we read it.
    if (bytes.length > maxBytes)
      throw fail(`grew past the limit of ${sizeInWords(maxBytes)} while being read`);
  } catch (error) {
    if (error instanceof UnreadableFileError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw fail(`cannot be read: ${(error as Error).message}`, code);
  } finally {
    closeSync(fd);
  }
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    throw fail(
      'starts with a byte order mark (BOM); save it as UTF-8 without a BOM (editors call it "UTF-8", not "UTF-8 with BOM")',
    );
  if (!isUtf8(bytes)) throw fail(`is not valid UTF-8: ${describeInvalidUtf8(bytes)}; save it as UTF-8`);
  return bytes.toString("utf8");
}

/**
 * Reads until the end of the file or `limit` bytes, whichever comes first: never more, even if the
 * file grows meanwhile. Starts with room for the size fstat gave (0 for /proc files, which have more).
 */
function readAtMost(fd: number, limit: number, sizeHint: number): Buffer {
  let buffer = Buffer.allocUnsafe(Math.min(sizeHint + 1, limit));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length === limit) break;
      const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, limit));
      buffer.copy(bigger, 0, 0, length);
      buffer = bigger;
    }
    const read = readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) break;
    length += read;
  }
  return buffer.subarray(0, length);
}

/**
 * Where the first invalid byte is: "byte 0xff at offset 41 (line 3, column 9)". The lenient decoder
 * replaces each invalid sequence with U+FFFD, and everything before the first such replacement
 * decoded exactly, so its length in bytes is the offset. A U+FFFD the file really holds (EF BF BD)
 * is skipped.
 */
function describeInvalidUtf8(bytes: Buffer): string {
  const text = bytes.toString("utf8");
  let offset = 0;
  let from = 0;
  for (let at = text.indexOf("\uFFFD"); at !== -1; at = text.indexOf("\uFFFD", at + 1)) {
    offset += Buffer.byteLength(text.slice(from, at));
    from = at;
    if (bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd) continue;
    const before = text.slice(0, at);
    const line = before.split("\n").length;
    const column = at - before.lastIndexOf("\n");
    return `byte 0x${bytes[offset]!.toString(16).padStart(2, "0")} at offset ${offset} (line ${line}, column ${column})`;
  }
  return "an invalid byte sequence";
}
