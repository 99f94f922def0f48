// Turns what the walker and the parser learned about one file into a SessionRecord.
import { createHash } from "node:crypto";
import type { SessionRecord, SessionWarning, StoreRef } from "../../../shared/session-record.js";
import type { FileIdentity } from "../../fs/file-identity.js";
import { isPiSessionFileName, namespaceFromFolderName, parseSessionFileName } from "./locations.js";
import { isoFromMs } from "./iso-time.js";
import { KNOWN_VERSIONS, normalizeTimestamp, type PiFileFacts } from "./session-parser.js";
import { MAX_LINES, readCapWarning } from "../read-caps.js";

export interface PiRecordInput {
  root: string;
  path: string;
  folder: string;
  identity: FileIdentity;
  /** 0 where unknown. */
  birthtimeMs: number;
  nonUtf8Name: boolean;
  /** Undefined when the file could not be read (`readError` says why). */
  facts?: PiFileFacts;
  readError?: string;
  /** Use the last entry's timestamp as `lastUsedAt` (else mtime). */
  precise: boolean;
}

/** A stable id for a file without a usable uuid: derived from its path. */
export function pathDerivedId(path: string): string {
  return `path-${createHash("sha256").update(path).digest("hex").slice(0, 16)}`;
}

const validIso = (value: string | undefined) => (value === undefined ? undefined : normalizeTimestamp(value));

function lineWarning(
  code: SessionWarning["code"],
  problem: { first: number; count: number },
  what: string,
): SessionWarning {
  const message =
    problem.count === 1
      ? `line ${problem.first} ${what}`
      : `${problem.count} lines ${what} (first: line ${problem.first})`;
  return { code, message, line: problem.first, ...(problem.count > 1 ? { count: problem.count } : {}) };
}

/** One store object per root, shared by its records: at 100,000 sessions the copies add up. */
const storeRefs = new Map<string, StoreRef>();
function storeRef(root: string): StoreRef {
  let ref = storeRefs.get(root);
  if (!ref) storeRefs.set(root, (ref = Object.freeze({ kind: "pi", root })));
  return ref;
}

/**
 * Whether a file the walk found is a pi session: its first line is a pi session header, or its name
 * is pi's own `<time>_<uuid>.jsonl` (an empty or damaged session pi wrote). Anything else — a user's
 * `events.jsonl`, a log — is not one, whatever folder it is in, and can never be deleted.
 */
export function isPiSession(input: Pick<PiRecordInput, "path" | "facts">): boolean {
  return !!input.facts?.header || isPiSessionFileName(input.path.slice(input.path.lastIndexOf("/") + 1));
}

const nameOf = (path: string) => parseSessionFileName(path.slice(path.lastIndexOf("/") + 1));

/**
 * Whether the read stopped at the line cap: it took MAX_LINES lines and the file goes on. Told by
 * the facts themselves, so the scan cache (which keeps them) needs no field for it.
 */
const readToCap = (facts: PiFileFacts, size: number) => facts.lines >= MAX_LINES && facts.offset < size;

export function buildPiRecord(input: PiRecordInput): SessionRecord {
  const { identity, facts, path } = input;
  // The file name is a fallback for a missing header: parsed only when needed (it is on the hot path).
  let fromName: ReturnType<typeof parseSessionFileName> | undefined;
  const header = facts?.header ?? null;
  const warnings: SessionWarning[] = [];
  const sizeBytes = identity.size;

  if (input.readError) warnings.push({ code: "unreadable", message: `could not read: ${input.readError}` });
  if (input.nonUtf8Name) {
    warnings.push({
      code: "non-utf8-name",
      message: "file name is not valid UTF-8; undecodable bytes are shown as \uFFFD",
    });
  }
  if (sizeBytes === 0)
    warnings.push({ code: "empty-file", message: "empty file: pi never wrote its header" });
  else if (facts && !header)
    warnings.push({ code: "missing-header", message: "first line is not a pi session header" });
  if (facts) {
    if (facts.corruptLines)
      warnings.push(lineWarning("corrupt-line", facts.corruptLines, "not a JSON object; skipped"));
    if (facts.longLines)
      warnings.push(lineWarning("line-too-long", facts.longLines, "too long to parse; counted only"));
    if (facts.truncatedLastLine) {
      warnings.push({
        code: "truncated-last-line",
        message: "last line is incomplete (cut off, or pi was writing it)",
        line: facts.lines + 1,
      });
    }
    if (readToCap(facts, sizeBytes))
      warnings.push(readCapWarning({ cap: "lines", lines: facts.lines, bytes: facts.offset }));
  }
  const version = header ? (header.version ?? 1) : undefined;
  if (version !== undefined && !(KNOWN_VERSIONS as readonly number[]).includes(version)) {
    warnings.push({
      code: "unknown-version",
      message: `session format version ${version} is newer than this tool knows`,
    });
  }

  let namespace = header?.cwd || undefined;
  if (!namespace) {
    const guess = namespaceFromFolderName(input.folder);
    namespace = guess ?? "(unknown)";
    warnings.push({
      code: "namespace-from-folder",
      message: guess
        ? `no header cwd: namespace guessed from folder name "${input.folder}" (lossy)`
        : "no header cwd and no pi folder name: namespace unknown",
    });
  }

  const modifiedAt = isoFromMs(identity.mtimeMs);
  const createdAt =
    validIso(header?.timestamp) ??
    (fromName ??= nameOf(path)).createdAt ??
    isoFromMs(input.birthtimeMs > 0 ? input.birthtimeMs : identity.mtimeMs);
  // Of a file read to the cap, its last entry is unknown: its mtime then.
  const lastUsedAt =
    input.precise && facts && !readToCap(facts, sizeBytes) ? (facts.lastEntryAt ?? modifiedAt) : modifiedAt;
  const counts = facts?.counts ?? { user: 0, assistant: 0, toolResult: 0, other: 0 };

  // Built by assignment, not with conditional spreads (a temporary object each): this runs for every
  // session on every scan. The keys keep their order: `warnings` last.
  const record: Omit<SessionRecord, "warnings"> & { warnings?: SessionWarning[] } = {
    id: header?.id ?? (fromName ??= nameOf(path)).id ?? pathDerivedId(path),
    store: storeRef(input.root),
    path,
    namespace,
    sizeBytes,
    createdAt,
    modifiedAt,
    lastUsedAt,
    fingerprint: { dev: identity.dev, ino: identity.ino, size: identity.size, mtimeNs: identity.mtimeNs },
    messageCount: facts?.entries ?? 0,
    // Shared with the cache entry, not copied: neither is changed after the read.
    messageCounts: counts,
  };
  if (typeof facts?.name === "string") record.name = facts.name;
  if (facts?.firstMessage) record.firstMessage = facts.firstMessage;
  if (header?.parentSession) record.parentSession = header.parentSession;
  if (version !== undefined) record.version = version;
  record.warnings = warnings;
  return record as SessionRecord;
}
