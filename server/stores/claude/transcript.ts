// Reads what the retention policy needs from a Claude Code transcript
// (`projects/<folder>/<sessionId>.jsonl`), streaming: its session id and working directory (from the
// first line that has them — metadata lines such as `last-prompt`, `custom-title`, `summary` or a
// file-history snapshot often come first) and the one `/cd` moved it to, its first and last
// timestamps, its messages by role, what its titles are made of, when the user last typed a prompt,
// and the sessions it came from. Lines are parsed up to a cap; a longer line (a file-history
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
   * The working directory `/cd` moved the session to: the last `relocated` line's `relocatedCwd`.
   * Claude moved the transcript (and its folder) to that directory's project folder then.
   */
  relocatedCwd?: string;
  /**
   * What Claude's session list makes a title of, each the last of its kind (Claude re-appends them
   * as the file grows): a rename (`custom-title`), Claude's own title (`ai-title`), the last prompt
   * (`last-prompt`, one short line), a summary (`summary`, older versions).
   */
  customTitle?: string;
  aiTitle?: string;
  lastPrompt?: string;
  summary?: string;
  /** The first real prompt, one short line: meta lines, tool results and command wrappers skipped. */
  firstMessage?: string;
  /** When the user last typed a prompt (ms): a session archived before it is no longer archived. */
  lastTypedAt?: number;
  /**
   * A session this one reads its history from: a `fork-context-ref` line (a fork written as a
   * pointer, not a copy). When it names another session, that one must stay while this one exists.
   */
  readsFrom?: string;
  /** A session this one was copied from (`/branch`: lines carry `forkedFrom`): lineage only. */
  branchedFrom?: string;
  /**
   * A session this one's conversation was copied from (`--fork-session`): Claude writes the copied
   * lines under the new session's id, and marks each copied reply with the session that asked for
   * it (`requestSessionId`). The last such mark is the session copied last — its parent, where a
   * copy of a copy carries its grandparent's marks first.
   */
  copiedFrom?: string;
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

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

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
  if (type === "assistant") copiedReply(facts, line.requestSessionId, sessionId);
  if (type === "user") {
    const prompt = promptText(line);
    if (prompt !== undefined) {
      facts.firstMessage ??= prompt;
      if (typedByUser(line)) typedAt(facts, timestamp);
    }
  } else if (type === "attachment") {
    // A prompt typed while Claude was busy, queued and sent later.
    const queued = line.attachment as { type?: unknown; prompt?: unknown } | undefined;
    if (queued?.type === "queued_command" && queued.prompt && typedByUser(queued as Record<string, unknown>))
      typedAt(facts, timestamp);
  }
  if (type === "custom-title") facts.customTitle = text(line.customTitle) ?? facts.customTitle;
  else if (type === "ai-title") facts.aiTitle = text(line.aiTitle) ?? facts.aiTitle;
  else if (type === "summary") facts.summary = text(line.summary) ?? facts.summary;
  else if (type === "last-prompt") {
    const prompt = text(line.lastPrompt);
    if (prompt !== undefined) facts.lastPrompt = oneLine(prompt) ?? facts.lastPrompt;
  } else if (type === "relocated") facts.relocatedCwd = text(line.relocatedCwd) ?? facts.relocatedCwd;
  // Parsers disagree on the pointer's field names: read both.
  if (type === "fork-context-ref") {
    const parent = sessionRef(line.parentSessionId) ?? sessionRef(line.forkedSessionId);
    if (parent !== undefined) facts.readsFrom ??= parent;
  }
  const branched = sessionRef(line.forkedFrom);
  if (branched !== undefined) facts.branchedFrom ??= branched;
}

/** A reply written under `sessionId` that another session asked for: a copy of that session's. */
function copiedReply(facts: ClaudeFacts, requestSessionId: unknown, sessionId: unknown) {
  if (typeof requestSessionId === "string" && requestSessionId !== "" && requestSessionId !== sessionId)
    facts.copiedFrom = requestSessionId;
}

/**
 * What Claude Code writes as a user line without the user typing it: a slash command's wrapper and
 * output, hook and system text, the caveat before local commands, an interruption note.
 */
const NOT_TYPED =
  /^(?:<(?:command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat|system-reminder|bash-input|bash-stdout|bash-stderr|user-prompt-submit-hook)>|Caveat: |\[Request interrupted)/;

/** A user line's prompt as one short line (`typedText`). */
const promptText = (line: Record<string, unknown>) => {
  const text = typedText(line);
  return text === undefined ? undefined : oneLine(text);
};

/**
 * A user line's prompt as typed, as Claude's resume list finds a session's first prompt: not a meta
 * line (`isMeta`), a compaction summary or a subagent's line; text blocks only (a tool result is not
 * a prompt); not a command wrapper.
 */
export function typedText(line: Record<string, unknown>): string | undefined {
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
  return text;
}

function typedAt(facts: ClaudeFacts, timestamp: unknown) {
  const at = typeof timestamp === "string" ? Date.parse(timestamp) : Number.NaN;
  if (!Number.isNaN(at)) facts.lastTypedAt = at;
}

/**
 * Whether a prompt came from the person at the keyboard: no `origin`, or a human one (a peer
 * session's message or a task's notification is not) — what Claude's archive looks for.
 */
function typedByUser(line: Record<string, unknown>): boolean {
  const origin = line.origin as { kind?: unknown } | undefined;
  return origin === undefined || origin === null || origin.kind === "human";
}

/** The top-level type: right before `"uuid"` at a line's end (an assistant line), or before any nested object. */
const TYPE_BEFORE_UUID = /"type":"([a-z_-]+)","uuid":"/;
const TYPE_AT_TOP = /^\{[^{]*?"type":"([a-z_-]+)"/;

/** The top-level `type` of a line too long to parse, from its two ends. */
export const longLineType = (head: string, tail: string) =>
  TYPE_BEFORE_UUID.exec(tail)?.[1] ?? TYPE_AT_TOP.exec(head)?.[1];
const TIMESTAMP = /"timestamp":"([^"]{10,40})"/g;
const CWD = /"cwd":"((?:[^"\\]|\\.)*)"/;
const SESSION_ID = /"sessionId":"([^"]+)"/;
const SESSION_ID_G = /"sessionId":"([^"]+)"/g;
const REQUEST_SESSION_ID = /"requestSessionId":"([^"]+)"/;

/**
 * A line too long to parse: what its ends say. Claude writes `cwd` and `sessionId` near a line's
 * start — or, on an assistant line, after its message, with the top-level `type`, `uuid`,
 * `timestamp` and a copied reply's `requestSessionId` — at its end.
 */
function takeLongLine(facts: ClaudeFacts, head: string, tail: string) {
  facts.longLines += 1;
  const type = longLineType(head, tail);
  // 2.1.332 writes a line's own `sessionId` after its message: the last one in the tail is the line's.
  const sessionId = [...tail.matchAll(SESSION_ID_G)].at(-1)?.[1] ?? SESSION_ID.exec(head)?.[1];
  if (type === "user" || type === "assistant") facts.counts[type] += 1;
  else facts.counts.other += 1;
  if (type === "assistant") copiedReply(facts, REQUEST_SESSION_ID.exec(tail)?.[1], sessionId);
  const cwd = CWD.exec(head)?.[1];
  if (facts.cwd === undefined && cwd) {
    try {
      facts.cwd = JSON.parse(`"${cwd}"`) as string;
    } catch {
      // an escape cut by the window: the next line with a cwd will do
    }
  }
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
