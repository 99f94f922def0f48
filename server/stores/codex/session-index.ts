// Codex's `session_index.jsonl`: one `{"id","thread_name","updated_at"}` line per rename, appended;
// the last line of an id wins. We read it for names, keep each thread's exact lines so a restore
// can append them again, and never write it except to put back lines we took away — and then only
// to a regular file at its path, never through a symlink nor into a FIFO (fs/append-to-file.ts).
import { join } from "node:path";
import { type AppendableFile, openToAppend } from "../../fs/append-to-file.js";
import { readSmallTextFile } from "../../fs/read-small-file.js";
import { SESSION_INDEX } from "./location.js";

export interface IndexEntry {
  /** The name Codex shows: the last line's `thread_name`. */
  name?: string;
  /** The thread's lines, exactly as they are in the file (without their newline), in order. */
  lines: string[];
}

/** A line per rename, ~150 bytes: hundreds of thousands of renames. A bigger file is not read. */
const INDEX_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The lines of the index file, without their newlines (none when it is missing or unreadable — a
 * FIFO or a device there is unreadable, never a wait).
 */
function indexLines(root: string): string[] {
  try {
    return readSmallTextFile(join(root, SESSION_INDEX), {
      maxBytes: INDEX_MAX_BYTES,
      what: "Codex session index",
    }).split("\n");
  } catch {
    return [];
  }
}

/** A line's thread id (lower-cased) and name, when it is an index line at all. */
function parseLine(line: string): { id: string; name?: string } | undefined {
  if (line.trim() === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  const { id, thread_name: name } = (parsed ?? {}) as { id?: unknown; thread_name?: unknown };
  if (typeof id !== "string") return undefined;
  return { id: id.toLowerCase(), ...(typeof name === "string" ? { name } : {}) };
}

/** Every thread the index names, by its id (lower-cased). */
export function readSessionIndex(root: string): Map<string, IndexEntry> {
  const byId = new Map<string, IndexEntry>();
  for (const line of indexLines(root)) {
    const parsed = parseLine(line);
    if (!parsed) continue;
    const entry = byId.get(parsed.id) ?? { lines: [] };
    entry.lines.push(line);
    if (parsed.name !== undefined) entry.name = parsed.name;
    byId.set(parsed.id, entry);
  }
  return byId;
}

/** The lines of `lines` that name these threads, in order. */
const linesOfThreads = (lines: readonly string[], threads: readonly string[]) => {
  const wanted = new Set(threads.map((t) => t.toLowerCase()));
  return lines.filter((line) => wanted.has(parseLine(line)?.id ?? ""));
};

/** The index lines of these threads, in file order: what a delete takes away and a restore appends. */
export function indexLinesOf(root: string, threads: readonly string[]): string[] {
  return linesOfThreads(indexLines(root), threads);
}

/** The index, opened to put lines back (see `openSessionIndex`). */
export interface SessionIndexAppend {
  /** These threads' lines in the index now. */
  linesOf(threads: readonly string[]): string[];
  /**
   * Appends lines, as Codex does (one write in append mode, so a line Codex appends at the same
   * moment is not torn; the last line of an id wins, so appending restores the name), and closes.
   */
  append(lines: readonly string[]): void;
  close(): void;
}

/**
 * The index opened to append to — a regular file at its path (or none yet), never a symlink nor a
 * FIFO — or why it cannot be: then whatever needed it (a restore) is refused, said why.
 */
export function openSessionIndex(root: string): SessionIndexAppend | string {
  const file: AppendableFile | string = openToAppend(join(root, SESSION_INDEX));
  if (typeof file === "string") return `Codex's index of thread names cannot be appended to: ${file}`;
  return {
    linesOf: (threads) => linesOfThreads(file.read().split("\n"), threads),
    append(lines) {
      if (lines.length === 0) file.close();
      else file.append(lines.map((line) => `${line}\n`).join(""));
    },
    close: file.close,
  };
}
