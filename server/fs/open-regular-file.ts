// Opening a file something else may have replaced since it was looked at: never through a symlink,
// never waiting for a FIFO's writer (or taking a terminal), and keeping it only when what was opened
// is a regular file — what every reader of an agent's store needs before it reads a byte.
import { type BigIntStats, closeSync, constants, fstatSync, openSync, type Stats } from "node:fs";
import { type FileIdentity, identityOf } from "./file-identity.js";

/** O_NONBLOCK: opening a FIFO with no writer would wait for one, forever; O_NOCTTY: a terminal stays not ours. */
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/** What a file that is not a regular one is, in words; undefined for a regular file. */
export function notRegular(stat: Stats | BigIntStats): string | undefined {
  if (stat.isFile()) return undefined;
  if (stat.isDirectory()) return "a folder";
  if (stat.isFIFO()) return "a named pipe (FIFO)";
  if (stat.isSocket()) return "a socket";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  return "a special file";
}

/** What was opened is not a regular file (code EINVAL, as `open` would say for something unusable). */
export class NotRegularFileError extends Error {
  override name = "NotRegularFileError";
  readonly code = "EINVAL";
  constructor(
    path: string | Buffer,
    /** What it is, in words: "a named pipe (FIFO)", "a character device"… */
    readonly kind: string,
  ) {
    super(`${String(path)} is ${kind}, not a regular file`);
  }
}

export interface OpenedFile {
  fd: number;
  /** The file as it was opened (fstat of the descriptor): read up to its size, not to its end. */
  identity: FileIdentity;
}

/**
 * Opens `path` to read, or throws: as `open` does (ENOENT, and ELOOP for a symlink), or a
 * `NotRegularFileError` that says what the file is when it is not a regular one. The type is checked
 * on what was opened, so nothing can swap the file between a check and the read. The caller closes `fd`.
 */
export function openRegularFile(path: string | Buffer): OpenedFile {
  const fd = openSync(path, READ_FLAGS);
  try {
    const stat = fstatSync(fd, { bigint: true });
    const kind = notRegular(stat);
    if (kind) throw new NotRegularFileError(path, kind);
    return { fd, identity: identityOf(stat) };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}
