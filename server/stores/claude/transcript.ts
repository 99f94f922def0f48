// Reads what the retention policy needs from a Claude Code transcript
// (`projects/<folder>/<sessionId>.jsonl`), streaming: its session id and working directory (from the
// first line that has them — metadata lines such as `last-prompt`, `custom-title`, `summary` or a
// file-history snapshot often come first), its first and last timestamps, its messages by role, its
// title, and the sessions it came from. Lines are parsed up to a cap; a longer line (a file-history
// snapshot, a pasted image) is counted without being held whole. The format is internal to Claude
// Code and changes between versions: every field is optional here.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { type FileIdentity, identityOf } from "../../scan/file-identity.js";

/** Lines longer than this are counted, not parsed. */
const PARSE_CAP = 256 * 1024;
/** Of a longer line, this much of its start is kept to find its type and time. */
const LONG_LINE_HEAD = 4096;
const CHUNK = 256 * 1024;

export interface ClaudeFacts {
  sessionId?: string;
  cwd?: string;
  firstAt?: string;
  lastAt?: string;
  /**
   * Its title as Claude's session list shows it: the last `custom-title` (a rename), else the last
   * `ai-title`, else the last `summary`. Claude re-appends titles as the file grows.
   */
  title?: string;
  /**
   * A session this one reads its history from: a `fork-context-ref` line (a fork written as a
   * pointer, not a copy). When it names another session, that one must stay while this one exists.
   */
  readsFrom?: string;
  /** A session this one was copied from (`/branch`: lines carry `forkedFrom`): lineage only. */
  branchedFrom?: string;
  lines: number;
  counts: { user: number; assistant: number; other: number };
  corruptLines: number;
  longLines: number;
}

/** A string field, or a string `sessionId` inside an object field. */
function sessionRef(value: unknown): string | undefined {
  if (typeof value === "string" && value !== "") return value;
  if (typeof value === "object" && value !== null) {
    const id = (value as { sessionId?: unknown }).sessionId;
    if (typeof id === "string" && id !== "") return id;
  }
  return undefined;
}

/** The three kinds of title, each the last seen; `title` is the first that exists. */
const titles = new WeakMap<ClaudeFacts, { custom?: string; ai?: string; summary?: string }>();

function takeLine(facts: ClaudeFacts, line: Record<string, unknown>) {
  const { type, cwd, sessionId, timestamp } = line;
  if (facts.sessionId === undefined && typeof sessionId === "string") facts.sessionId = sessionId;
  if (facts.cwd === undefined && typeof cwd === "string" && cwd !== "") facts.cwd = cwd;
  if (typeof timestamp === "string" && !Number.isNaN(Date.parse(timestamp))) {
    facts.firstAt ??= timestamp;
    facts.lastAt = timestamp;
  }
  if (type === "user" || type === "assistant") facts.counts[type] += 1;
  else facts.counts.other += 1;
  const seen = titles.get(facts) ?? {};
  if (type === "custom-title" && typeof line.customTitle === "string") seen.custom = line.customTitle;
  if (type === "ai-title" && typeof line.aiTitle === "string") seen.ai = line.aiTitle;
  if (type === "summary" && typeof line.summary === "string") seen.summary = line.summary;
  titles.set(facts, seen);
  const title = seen.custom ?? seen.ai ?? seen.summary;
  if (title !== undefined) facts.title = title;
  // Parsers disagree on the pointer's field names: read both.
  if (type === "fork-context-ref") {
    const parent = sessionRef(line.parentSessionId) ?? sessionRef(line.forkedSessionId);
    if (parent !== undefined) facts.readsFrom ??= parent;
  }
  const branched = sessionRef(line.forkedFrom);
  if (branched !== undefined) facts.branchedFrom ??= branched;
}

const TIMESTAMP = /"timestamp":"([^"]{10,40})"/;
const TYPE = /"type":"([a-z_-]+)"/;

/** A line too long to parse: its type and time from the start of it, when they are there. */
function takeLongLine(facts: ClaudeFacts, head: string) {
  facts.longLines += 1;
  const type = TYPE.exec(head)?.[1];
  if (type === "user" || type === "assistant") facts.counts[type] += 1;
  else facts.counts.other += 1;
  const timestamp = TIMESTAMP.exec(head)?.[1];
  if (timestamp && !Number.isNaN(Date.parse(timestamp))) {
    facts.firstAt ??= timestamp;
    facts.lastAt = timestamp;
  }
}

function takeText(facts: ClaudeFacts, text: string) {
  if (text.trim() === "") return;
  facts.lines += 1;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    facts.corruptLines += 1;
    return;
  }
  if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
    takeLine(facts, parsed as Record<string, unknown>);
  else facts.corruptLines += 1;
}

/**
 * The facts of one transcript, read without following a symlink, up to the size it had when
 * opened (a session Claude appends to meanwhile is read as it was).
 */
export function readClaudeTranscript(path: string): { facts: ClaudeFacts; identity: FileIdentity } {
  const facts: ClaudeFacts = {
    lines: 0,
    counts: { user: 0, assistant: 0, other: 0 },
    corruptLines: 0,
    longLines: 0,
  };
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd, { bigint: true });
    if (!stat.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: "EINVAL" });
    const identity = identityOf(stat);
    const buffer = Buffer.allocUnsafe(CHUNK);
    /** The pieces of the line being read; only its head once it is past the cap. */
    let pending: Buffer[] = [];
    let pendingLength = 0;
    const endLine = () => {
      if (pendingLength > PARSE_CAP) {
        facts.lines += 1;
        takeLongLine(facts, Buffer.concat(pending).toString("utf8"));
      } else takeText(facts, Buffer.concat(pending, pendingLength).toString("utf8"));
      pending = [];
      pendingLength = 0;
    };
    const keep = (bytes: Buffer) => {
      if (pendingLength <= PARSE_CAP) pending.push(Buffer.from(bytes));
      pendingLength += bytes.length;
      // Past the cap only the head is needed: drop the rest as it comes.
      if (pendingLength > PARSE_CAP && pending.length > 1)
        pending = [Buffer.concat(pending).subarray(0, LONG_LINE_HEAD)];
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
        keep(buffer.subarray(start, newline));
        endLine();
        start = newline + 1;
      }
      if (start < read) keep(buffer.subarray(start, read));
    }
    if (pendingLength > 0) endLine();
    return { facts, identity };
  } finally {
    closeSync(fd);
  }
}
