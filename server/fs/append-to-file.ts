// Appending to a file another program owns (an agent's index of its sessions): opened with
// O_APPEND|O_NOFOLLOW|O_NONBLOCK — a symlink at its path is never followed (it could lead anywhere),
// a FIFO never blocks us (while we hold the deletion lock, a blocked open stops everything) — and
// used only once fstat on the open file says it is a regular file. Everything else is a refusal in
// words, never a hang and never a write somewhere else. Read and appended through the one open file,
// so what was checked is what is read and written.
import { closeSync, constants, fstatSync, openSync, readFileSync, writeSync } from "node:fs";
import { notRegular } from "./open-regular-file.js";

/** An agent's file opened to append to: its text as it is, and the append. */
export interface AppendableFile {
  /** Its whole text now ("" for a file that does not exist yet). */
  read(): string;
  /** Appends `text` in one write (so a line its owner appends meanwhile is not torn), then closes it. */
  append(text: string): void;
  close(): void;
}

const { O_RDWR, O_APPEND, O_NOFOLLOW, O_NONBLOCK, O_CREAT, O_EXCL } = constants;

/** Opens with the safe flags (and `extra`); the fd of a regular file, "missing", or why not. */
function openRegular(path: string, extra = 0): number | "missing" | string {
  let fd: number;
  try {
    fd = openSync(path, O_RDWR | O_APPEND | O_NOFOLLOW | O_NONBLOCK | extra, 0o644);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return "missing";
    if (code === "ELOOP") return `${path} is a symbolic link: it is never appended to through one`;
    if (code === "EISDIR") return `${path} is a folder, not a regular file`;
    return `${path} could not be opened to append to (${(error as Error).message})`;
  }
  const kind = notRegular(fstatSync(fd));
  if (kind === undefined) return fd;
  closeSync(fd);
  return `${path} is ${kind}, not a regular file: it is never appended to`;
}

/**
 * `path` opened to append to (a regular file, or none yet: then it is created by the append, never
 * through a symlink), or why it cannot be: the caller refuses what needed it.
 */
export function openToAppend(path: string): AppendableFile | string {
  const opened = openRegular(path);
  if (typeof opened === "string" && opened !== "missing") return opened;
  let fd = opened === "missing" ? undefined : opened;
  const close = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };
  return {
    read: () => (fd === undefined ? "" : readFileSync(fd, "utf8")),
    append(text) {
      if (fd === undefined) {
        // Created now, exclusively: a symlink or anything else put there meanwhile is refused.
        const made = openRegular(path, O_CREAT | O_EXCL);
        if (typeof made === "string")
          throw new Error(made === "missing" ? `${path} could not be created` : made);
        fd = made;
      }
      try {
        const bytes = Buffer.from(text);
        for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
      } finally {
        close();
      }
    },
    close,
  };
}
