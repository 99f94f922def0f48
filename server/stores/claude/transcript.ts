// Reads what the retention policy needs from a Claude Code transcript
// (`projects/<folder>/<sessionId>.jsonl`), streaming: its session id and working directory (from the
// first line that has them — metadata lines such as `last-prompt`, `custom-title`, `summary` or a
// file-history snapshot often come first), its first and last timestamps, its messages by role, its
// title, and the sessions it came from. Lines are parsed up to a cap; a longer line (a file-history
// snapshot, a pasted image) is counted without being held whole. The format is internal to Claude
// Code and changes between versions: every field is optional here.
import type { FileIdentity } from "../../fs/file-identity.js";
import { oneLine } from "../../../shared/session-title.js";
import { readJsonLines } from "../json-lines.js";
import type { ReadCap } from "../read-caps.js";

/** Lines longer than this are counted, not parsed. */
const PARSE_CAP = 256 * 1024;
/** How many other session ids of a continued transcript are kept. */
const MAX_OTHER_IDS = 16;

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
  /** The first real prompt, one short line: meta lines, tool results and command wrappers skipped. */
  firstMessage?: string;
  /**
   * A session this one reads its history from: a `fork-context-ref` line (a fork written as a
   * pointer, not a copy). When it names another session, that one must stay while this one exists.
   */
  readsFrom?: string;
  /** A session this one was copied from (`/branch`: lines carry `forkedFrom`): lineage only. */
  branchedFrom?: string;
  /**
   * Other session ids its lines carry: after `--continue` Claude appends to the old file under a
   * new id, and that id's side files belong to this transcript (the first few are kept).
   */
  otherSessionIds?: string[];
  lines: number;
  counts: { user: number; assistant: number; other: number };
  corruptLines: number;
  longLines: number;
  /** Reading stopped at the line cap (read-caps.ts): the facts are of the lines before it. */
  capped?: ReadCap;
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
  else if (typeof sessionId === "string" && sessionId !== facts.sessionId) {
    const others = (facts.otherSessionIds ??= []);
    if (!others.includes(sessionId) && others.length < MAX_OTHER_IDS) others.push(sessionId);
  }
  if (facts.cwd === undefined && typeof cwd === "string" && cwd !== "") facts.cwd = cwd;
  if (typeof timestamp === "string" && !Number.isNaN(Date.parse(timestamp))) {
    facts.firstAt ??= timestamp;
    facts.lastAt = timestamp;
  }
  if (type === "user" || type === "assistant") facts.counts[type] += 1;
  else facts.counts.other += 1;
  if (type === "user" && facts.firstMessage === undefined) {
    const prompt = promptText(line);
    if (prompt !== undefined) facts.firstMessage = prompt;
  }
  if (type === "custom-title" || type === "ai-title" || type === "summary") {
    const seen = titles.get(facts) ?? {};
    if (type === "custom-title" && typeof line.customTitle === "string") seen.custom = line.customTitle;
    if (type === "ai-title" && typeof line.aiTitle === "string") seen.ai = line.aiTitle;
    if (type === "summary" && typeof line.summary === "string") seen.summary = line.summary;
    titles.set(facts, seen);
    const title = seen.custom ?? seen.ai ?? seen.summary;
    if (title !== undefined) facts.title = title;
  }
  // Parsers disagree on the pointer's field names: read both.
  if (type === "fork-context-ref") {
    const parent = sessionRef(line.parentSessionId) ?? sessionRef(line.forkedSessionId);
    if (parent !== undefined) facts.readsFrom ??= parent;
  }
  const branched = sessionRef(line.forkedFrom);
  if (branched !== undefined) facts.branchedFrom ??= branched;
}

/**
 * What Claude Code writes as a user line without the user typing it: a slash command's wrapper and
 * output, hook and system text, the caveat before local commands, an interruption note.
 */
const NOT_TYPED =
  /^(?:<(?:command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat|system-reminder|bash-input|bash-stdout|bash-stderr|user-prompt-submit-hook)>|Caveat: |\[Request interrupted)/;

/**
 * A user line's prompt as one short line, as Claude's resume list finds a session's first prompt:
 * not a meta line (`isMeta`), a compaction summary or a subagent's line; text blocks only (a tool
 * result is not a prompt); not a command wrapper.
 */
function promptText(line: Record<string, unknown>): string | undefined {
  if (line.isMeta === true || line.isCompactSummary === true || line.isSidechain === true) return undefined;
  const content = (line.message as { content?: unknown } | undefined)?.content;
  let text: string | undefined;
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    const texts: string[] = [];
    for (const block of content as unknown[]) {
      const { type, text: value } = (block ?? {}) as { type?: unknown; text?: unknown };
      if (type === "text" && typeof value === "string") texts.push(value);
    }
    text = texts.join(" ");
  }
  if (text === undefined || NOT_TYPED.test(text.trimStart())) return undefined;
  return oneLine(text);
}

/** The top-level type: right before `"uuid"` at a line's end (an assistant line), or before any nested object. */
const TYPE_BEFORE_UUID = /"type":"([a-z_-]+)","uuid":"/;
const TYPE_AT_TOP = /^\{[^{]*?"type":"([a-z_-]+)"/;
const TIMESTAMP = /"timestamp":"([^"]{10,40})"/g;
const CWD = /"cwd":"((?:[^"\\]|\\.)*)"/;
const SESSION_ID = /"sessionId":"([^"]+)"/;

/**
 * A line too long to parse: what its ends say. Claude writes `cwd` and `sessionId` near a line's
 * start, and the top-level `type` (of an assistant line, after its message), `uuid` and
 * `timestamp` at its end.
 */
function takeLongLine(facts: ClaudeFacts, head: string, tail: string) {
  facts.longLines += 1;
  const type = TYPE_BEFORE_UUID.exec(tail)?.[1] ?? TYPE_AT_TOP.exec(head)?.[1];
  if (type === "user" || type === "assistant") facts.counts[type] += 1;
  else facts.counts.other += 1;
  const cwd = CWD.exec(head)?.[1];
  if (facts.cwd === undefined && cwd) {
    try {
      facts.cwd = JSON.parse(`"${cwd}"`) as string;
    } catch {
      // an escape cut by the window: the next line with a cwd will do
    }
  }
  const sessionId = SESSION_ID.exec(head)?.[1];
  if (facts.sessionId === undefined && sessionId) facts.sessionId = sessionId;
  const timestamp = [...tail.matchAll(TIMESTAMP)].at(-1)?.[1] ?? [...head.matchAll(TIMESTAMP)][0]?.[1];
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
  const { identity, capped } = readJsonLines(path, {
    parseCap: PARSE_CAP,
    line: (text) => takeText(facts, text),
    longLine: (head, tail) => {
      facts.lines += 1;
      takeLongLine(facts, head, tail);
    },
  });
  if (capped) facts.capped = capped;
  return { facts, identity };
}
