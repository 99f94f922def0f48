// A session in detail, for the dashboard's drawer, whatever its agent (each adapter that can read one
// says how: `StoreReader.sessionDetail`), and the one rule every such read keeps: only the file the
// look found is read — a file replaced since is refused with a 409, never waited on.
import { closeSync } from "node:fs";
import type { Fingerprint } from "../../shared/session-record.js";
import { ConflictError } from "../errors.js";
import { NotRegularFileError, openRegularFile, type OpenedFile } from "../fs/open-regular-file.js";
import { type LineReader, readJsonLinesAsync } from "./json-lines.js";
import type { ReadCap } from "./read-caps.js";

export interface SessionDetail {
  /** Entries after the header by `type` (unknown types counted too). */
  entryTypes: Record<string, number>;
  /** Entries no other entry continues from: the ends of the conversation's branches. */
  leaves: number;
  /** Entries continued by more than one entry: where the conversation branched. */
  branchPoints: number;
  compactions: number;
  /** The first user message's text, cut to 300 characters. */
  firstUserMessage?: string;
  /** Lines too long to look into (counted by their type only when it can be seen). */
  longLines: number;
}

/** The file at a session's path is not the one its record was made from: 409, read nothing. */
export class SessionFileChangedError extends ConflictError {
  override name = "SessionFileChangedError";
  constructor(now: string) {
    super(`this session's file changed since the last look (${now}); rescan to see it as it is`, "changed");
  }
}

/** Opens the file the record names (`recorded`: its device and inode), or says what is there instead. */
export function openRecorded(path: string, recorded: Pick<Fingerprint, "dev" | "ino">): OpenedFile {
  let opened: OpenedFile;
  try {
    opened = openRegularFile(path);
  } catch (error) {
    if (error instanceof NotRegularFileError)
      throw new SessionFileChangedError(`it is ${error.kind} now, not a regular file`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new SessionFileChangedError("it is gone");
    if (code === "ELOOP") throw new SessionFileChangedError("it is a symlink now, not followed");
    throw error;
  }
  if (opened.identity.dev !== recorded.dev || opened.identity.ino !== recorded.ino) {
    closeSync(opened.fd);
    throw new SessionFileChangedError("another file is at its path now");
  }
  return opened;
}

/**
 * Reads the JSON lines of the file the record names into `reader` (`readJsonLines`' cutting: long
 * lines by their two ends, MAX_LINES at most), only while it is that file, and only as far as the
 * record measured it: what the agent appended since is the next look's.
 */
export async function readRecordedLines(
  path: string,
  recorded: Pick<Fingerprint, "dev" | "ino" | "size">,
  reader: LineReader,
): Promise<{ capped?: ReadCap }> {
  const { fd } = openRecorded(path, recorded);
  try {
    return await readJsonLinesAsync(fd, recorded.size, reader);
  } finally {
    closeSync(fd);
  }
}

/**
 * A detail being counted: each entry by its type (`(unreadable)` when it has none we can read), with
 * its id and the id of the entry it continues from; `done` works out the conversation's leaves and
 * branch points from them.
 */
export function detailTally() {
  const detail: SessionDetail = { entryTypes: {}, leaves: 0, branchPoints: 0, compactions: 0, longLines: 0 };
  const ids = new Set<string>();
  const children = new Map<string, number>();
  return {
    detail,
    entry(type: string | undefined, id?: string, parent?: string) {
      const name = type ?? "(unreadable)";
      detail.entryTypes[name] = (detail.entryTypes[name] ?? 0) + 1;
      if (id) ids.add(id);
      if (parent) children.set(parent, (children.get(parent) ?? 0) + 1);
    },
    done(): SessionDetail {
      for (const id of ids) {
        const n = children.get(id) ?? 0;
        if (n === 0) detail.leaves += 1;
        if (n > 1) detail.branchPoints += 1;
      }
      return detail;
    },
  };
}

/** A first message for the drawer's preview: cut to `PREVIEW_CHARS`. */
export const PREVIEW_CHARS = 300;
export const preview = (text: string) =>
  text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
