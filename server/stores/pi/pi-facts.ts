// What a scan keeps of a pi session file and makes of it: its facts as the facts store holds them
// (reused while the file is unchanged, resumed where it only grew), and its record, or the problem
// that it is not a pi session. The engine's scanner (server/scan/scanner.ts) calls these per file.
import type { ScanProblem } from "../../../shared/scan-report.js";
import type { SessionRecord } from "../../../shared/session-record.js";
import { sameIdentity } from "../../fs/file-identity.js";
import type { StoredFacts } from "../facts-cache.js";
import { buildPiRecord, isPiSession, type PiRecordInput } from "./pi-record.js";
import { readSessionFile } from "./read-session-file.js";
import type { PiFileFacts, PiParseState } from "./session-parser.js";
import type { FoundFile } from "./walker.js";

/** What a scan knows of a pi session file: its identity when read, and what reading it taught us. */
export interface CacheEntry {
  dev: number;
  ino: number;
  size: number;
  mtimeNs: string;
  facts: PiFileFacts;
  /** Resumable state when it differs from `facts` (last line without newline). */
  resume?: PiParseState;
}

/** The name pi's facts are kept under in the facts store (bump the version when `PiFileFacts` changes shape). */
export const PI_FACTS = "pi@1";

/** A cache entry from what the facts store kept, or undefined when it is damaged (the file is read again). */
export function entryOf(stored: StoredFacts | undefined): CacheEntry | undefined {
  if (!stored) return undefined;
  try {
    const entry: CacheEntry = { ...stored.identity, facts: JSON.parse(stored.facts) as PiFileFacts };
    if (stored.resume !== undefined) entry.resume = JSON.parse(stored.resume) as PiParseState;
    return entry;
  } catch {
    return undefined;
  }
}

export const storedOf = (e: CacheEntry): StoredFacts => ({
  identity: { dev: e.dev, ino: e.ino, size: e.size, mtimeNs: e.mtimeNs },
  facts: JSON.stringify(e.facts),
  ...(e.resume ? { resume: JSON.stringify(e.resume) } : {}),
});

export const cacheKey = (file: FoundFile) =>
  typeof file.fsPath === "string" ? file.fsPath : `bytes:${file.fsPath.toString("base64")}`;

/** Reuses the cache where the file is unchanged, resumes it where the file only grew, else reads it all. */
export function factsFor(file: FoundFile, cached: CacheEntry | undefined, buffer: Buffer) {
  const now = file.identity;
  if (cached && sameIdentity(cached, now)) return { entry: cached, identity: now, bytesRead: 0, hit: true };
  const grew = cached && cached.dev === now.dev && cached.ino === now.ino && cached.size < now.size;
  const result = readSessionFile(file.fsPath, buffer, grew ? (cached.resume ?? cached.facts) : undefined);
  const { dev, ino, size, mtimeNs } = result.identity;
  const entry: CacheEntry = { dev, ino, size, mtimeNs, facts: result.facts };
  if (result.resume) entry.resume = result.resume;
  return { entry, identity: result.identity, bytesRead: result.bytesRead, hit: false };
}

/**
 * What the scan knows of a found file before it is read. One object per file, built without
 * spreads, with every field it will have (no field added later: a new shape each time): this runs
 * for every session on every scan.
 */
export function inputOf(root: string, file: FoundFile, precise: boolean): PiRecordInput {
  return {
    root,
    path: file.path,
    folder: file.folder,
    birthtimeMs: file.birthtimeMs,
    nonUtf8Name: file.nonUtf8Name,
    precise,
    identity: file.identity,
    facts: undefined,
    readError: undefined,
  };
}

/**
 * A read of a found file that failed: true when the file is gone (deleted since the walk); a file
 * that became a link is a problem; any other failure is the input's `readError` (its record says
 * it could not be read).
 */
export function readFailure(input: PiRecordInput, error: unknown, problems: ScanProblem[]): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return true;
  if (code === "ELOOP")
    problems.push({
      code: "symlink",
      path: input.path,
      message: "became a symlink during the scan; not followed",
    });
  else input.readError = (error as Error).message;
  return false;
}

/** The record of a read (or unreadable) file, or undefined when it is not a pi session (a problem, then). */
export function pieceOf(input: PiRecordInput, problems: ScanProblem[]): SessionRecord | undefined {
  if (isPiSession(input)) return buildPiRecord(input);
  problems.push({
    code: "not-a-session",
    path: input.path,
    message: input.readError
      ? `cannot be read (${input.readError}) and is not named like a pi session: not a session of this pi store`
      : "no pi session header and not named like one (<time>_<uuid>.jsonl): not a session of this pi store",
    bytes: input.identity.size,
  });
  return undefined;
}
