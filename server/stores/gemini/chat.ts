// Reads what the retention policy needs from a Gemini CLI chat, the way Gemini itself reads it
// (google-gemini/gemini-cli packages/core/src/services/chatRecordingService.ts,
// loadConversationRecord, with `metadataOnly` as its session list and its cleanup use it).
//
// A chat (`chats/session-<time>-<8 chars of the id>.jsonl`) is appended to, one record a line: a
// metadata line first ({sessionId, projectHash, startTime, lastUpdated, kind, …}), then messages
// ({id, timestamp, type: user|gemini|info|error|warning, content, toolCalls?, …}), metadata
// updates ({"$set": {…}}: later values win; `$set.messages` replaces the conversation) and rewinds
// ({"$rewindTo": id}: that message and everything after it go). A message is appended again
// whenever it changes (its tool calls, its tokens), so lines are not messages: the conversation is
// the messages by id, as Gemini rebuilds it. Legacy chats (`.json`) are one JSON object with a
// `messages` array, rewritten whole on every change.
import { closeSync, readSync } from "node:fs";
import { oneLine } from "../../../shared/session-title.js";
import type { FileIdentity } from "../../fs/file-identity.js";
import { openRegularFile } from "../../fs/open-regular-file.js";
import { readJsonLines } from "../json-lines.js";
import type { ReadCap } from "../read-caps.js";
import { FactsCache } from "../facts-cache.js";

/** Lines longer than this are read by their ends only: a `$set.messages` holds a whole conversation. */
const PARSE_CAP = 4 * 1024 * 1024;
/** A legacy `.json` chat larger than this is not parsed (its file time stands in for its own). */
const LEGACY_CAP = 32 * 1024 * 1024;

export interface GeminiChatFacts {
  /** From the metadata line: the id Gemini finds the chat's side files by. */
  sessionId?: string;
  /** Metadata as Gemini merges it (the first line, then every `$set`). */
  startTime?: string;
  lastUpdated?: string;
  summary?: string;
  kind?: string;
  /** The first prompt worth showing (Gemini's name for a chat without a summary), one short line. */
  firstPrompt?: string;
  /** The first and last message times seen. */
  firstAt?: string;
  lastAt?: string;
  /** The conversation's messages, after rewinds and replacements, by type. */
  counts: { user: number; gemini: number; other: number };
  /** Whether Gemini would offer it to resume: a real prompt, or an answer with content or tool calls. */
  resumable: boolean;
  /** Whether Gemini can load it at all: it has metadata naming the session (and its project). */
  loadable: boolean;
  /** The file does not start with a metadata line (Gemini appended to it after it was moved, say). */
  headerless: boolean;
  lines: number;
  corruptLines: number;
  /** Lines past the parse cap, read by their ends only (their messages counted, not looked into). */
  longLines: number;
  /** Reading stopped at the line cap (read-caps.ts): the facts are of the lines before it. */
  capped?: ReadCap;
}

interface Message {
  type: string;
  resumable: boolean;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const stringOf = (value: unknown) => (typeof value === "string" ? value : undefined);
const validTime = (value: unknown) =>
  typeof value === "string" && !Number.isNaN(Date.parse(value)) ? value : undefined;

/** Parts Gemini shows by a label ("[Function Call: …]") rather than by their text. */
const LABELLED_PARTS = [
  "videoMetadata",
  "thought",
  "codeExecutionResult",
  "executableCode",
  "fileData",
  "functionCall",
  "functionResponse",
  "inlineData",
];

/** A message's content as text, as Gemini's `partToString(…, {verbose: true})` has it: other parts by a label. */
function contentText(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(contentText).join("");
  if (!isObject(value)) return "";
  const labelled = LABELLED_PARTS.find((key) => value[key] !== undefined);
  return labelled !== undefined ? `[${labelled}]` : (stringOf(value.text) ?? "");
}

/** A prompt Gemini does not count as conversation: empty, a command, help, injected context. */
const ignoredPrompt = (text: string) =>
  text === "" ||
  /^[/?]/.test(text) ||
  text.startsWith("<session_context>") ||
  text.startsWith("<hook_context>");

const nonEmpty = (value: unknown) => Array.isArray(value) && value.length > 0;

/** Reads one message record into the conversation. */
class Conversation {
  readonly messages = new Map<string, Message>();
  firstPrompt: string | undefined;
  firstAt: string | undefined;
  lastAt: string | undefined;

  add(record: Json) {
    const id = record.id as string;
    const type = stringOf(record.type) ?? "unknown";
    const text = contentText(record.content).trim();
    const resumable =
      type === "user"
        ? !ignoredPrompt(text)
        : type === "gemini" && (text !== "" || nonEmpty(record.toolCalls) || nonEmpty(record.thoughts));
    if (type === "user" && resumable && this.firstPrompt === undefined) this.firstPrompt = oneLine(text);
    this.addKind(id, type, resumable, record.timestamp);
  }

  /** A message known by its id and type only (a line too long to parse): it has content. */
  addKind(id: string, type: string, resumable: boolean, timestamp: unknown) {
    // Set on an id already there keeps its place: a message appended again is the same message.
    this.messages.set(id, { type, resumable });
    const at = validTime(timestamp);
    if (at !== undefined) {
      this.firstAt ??= at;
      this.lastAt = at;
    }
  }

  /** `$rewindTo`: the message and every later one go; an unknown id clears everything (as Gemini does). */
  rewind(id: string) {
    if (!this.messages.has(id)) return this.messages.clear();
    let cut = false;
    for (const key of [...this.messages.keys()]) {
      if (key === id) cut = true;
      if (cut) this.messages.delete(key);
    }
  }

  /** `$set.messages` (a checkpoint) or a legacy record's `messages`: the conversation is these. */
  replace(messages: unknown[], clear: boolean) {
    if (clear) this.messages.clear();
    for (const message of messages)
      if (isObject(message) && typeof message.id === "string") this.add(message);
  }
}

function newFacts(): GeminiChatFacts {
  return {
    counts: { user: 0, gemini: 0, other: 0 },
    resumable: false,
    loadable: false,
    headerless: false,
    lines: 0,
    corruptLines: 0,
    longLines: 0,
  };
}

/** Metadata as Gemini merges it: the metadata line (a partial record) and every `$set` after it. */
function takeMetadata(meta: Json, update: Json) {
  for (const key of ["sessionId", "projectHash", "startTime", "lastUpdated", "summary", "kind"])
    if (update[key] !== undefined) meta[key] = update[key];
}

/** The facts, once every line is in: the conversation counted, the metadata as it ended. */
function settle(facts: GeminiChatFacts, meta: Json, conversation: Conversation): GeminiChatFacts {
  for (const { type, resumable } of conversation.messages.values()) {
    if (type === "user") facts.counts.user += 1;
    else if (type === "gemini") facts.counts.gemini += 1;
    else facts.counts.other += 1;
    if (resumable) facts.resumable = true;
  }
  // Gemini loads a chat whose merged metadata names the session and its project (or, see below, a
  // single record naming the session).
  if (stringOf(meta.sessionId) && stringOf(meta.projectHash)) facts.loadable = true;
  const startTime = validTime(meta.startTime);
  const lastUpdated = validTime(meta.lastUpdated);
  const summary = stringOf(meta.summary);
  const kind = stringOf(meta.kind);
  return {
    ...facts,
    ...(startTime ? { startTime } : {}),
    ...(lastUpdated ? { lastUpdated } : {}),
    ...(summary ? { summary } : {}),
    ...(kind ? { kind } : {}),
    ...(conversation.firstPrompt !== undefined ? { firstPrompt: conversation.firstPrompt } : {}),
    ...(conversation.firstAt ? { firstAt: conversation.firstAt, lastAt: conversation.lastAt! } : {}),
  };
}

const HEAD_MESSAGE = /^\{"id":"((?:[^"\\]|\\.)*)","timestamp":"([^"]*)","type":"([a-z]+)"/;
const LAST_UPDATED = /"lastUpdated":"([^"]+)"/g;

/** A JSONL chat, streaming. */
function readChatLines(path: string): { facts: GeminiChatFacts; identity: FileIdentity } {
  const facts = newFacts();
  const meta: Json = {};
  const conversation = new Conversation();
  /** The only line, when there is one: Gemini parses a one-record file as a legacy whole record. */
  let only: Json | undefined;
  const { identity, capped } = readJsonLines(path, {
    parseCap: PARSE_CAP,
    line(text) {
      if (text.trim() === "") return;
      facts.lines += 1;
      let record: unknown;
      try {
        record = JSON.parse(text);
      } catch {
        record = undefined;
      }
      if (!isObject(record)) {
        facts.corruptLines += 1;
        if (facts.lines === 1) facts.headerless = true;
        return;
      }
      only = facts.lines === 1 ? record : undefined;
      // In Gemini's order: a rewind, a message (anything with a string id), an update, metadata.
      if (typeof record.$rewindTo === "string") conversation.rewind(record.$rewindTo);
      else if (typeof record.id === "string") conversation.add(record);
      else if (isObject(record.$set)) {
        takeMetadata(meta, record.$set);
        if (Array.isArray(record.$set.messages)) conversation.replace(record.$set.messages, true);
      } else if (typeof record.sessionId === "string" && typeof record.projectHash === "string") {
        takeMetadata(meta, record);
        if (Array.isArray(record.messages)) conversation.replace(record.messages, false);
      }
      if (facts.lines === 1) {
        // Gemini's own deletion takes the id from the first line only: so do we, for the side files.
        if (typeof record.sessionId === "string" && record.sessionId !== "")
          facts.sessionId = record.sessionId;
        else facts.headerless = true;
      }
    },
    longLine(head, tail) {
      facts.lines += 1;
      facts.longLines += 1;
      only = undefined;
      const message = HEAD_MESSAGE.exec(head);
      if (message) {
        // A message too long to read: a prompt with a pasted image, an answer with a large tool result.
        const type = message[3]!;
        conversation.addKind(message[1]!, type, type === "user" || type === "gemini", message[2]);
      } else if (head.startsWith('{"$set":')) {
        // A checkpoint of the whole conversation: its messages stay uncounted, its time is at its end.
        const lastUpdated = [...tail.matchAll(LAST_UPDATED)].at(-1)?.[1];
        if (lastUpdated) meta.lastUpdated = lastUpdated;
      }
      if (facts.lines === 1) {
        const sessionId = /^\{"sessionId":"([^"\\]+)"/.exec(head)?.[1];
        if (sessionId) facts.sessionId = sessionId;
        else facts.headerless = true;
      }
    },
  });
  // A single record with a session id is what Gemini's fallback for legacy files accepts.
  if (only && typeof only.sessionId === "string" && only.sessionId !== "") facts.loadable = true;
  if (facts.lines === 0) facts.headerless = true;
  if (capped) facts.capped = capped;
  return { facts: settle(facts, meta, conversation), identity };
}

/** A legacy `.json` chat: one object, read whole (up to a cap). */
function readLegacyChat(path: string): { facts: GeminiChatFacts; identity: FileIdentity } {
  const facts = newFacts();
  const meta: Json = {};
  const conversation = new Conversation();
  const { fd, identity } = openRegularFile(path);
  try {
    if (identity.size > LEGACY_CAP) {
      // Too large to parse here; Gemini rewrote it whole at every change, so its time is its last update.
      facts.longLines = 1;
      facts.loadable = facts.resumable = true;
      return { facts: { ...facts, lastUpdated: new Date(identity.mtimeMs).toISOString() }, identity };
    }
    const buffer = Buffer.alloc(identity.size);
    for (let at = 0; at < identity.size;) {
      const read = readSync(fd, buffer, at, identity.size - at, at);
      if (read === 0) break;
      at += read;
    }
    facts.lines = 1;
    let record: unknown;
    try {
      record = JSON.parse(buffer.toString("utf8"));
    } catch {
      record = undefined;
    }
    if (!isObject(record)) {
      facts.corruptLines = 1;
      facts.headerless = true;
    } else {
      takeMetadata(meta, record);
      if (Array.isArray(record.messages)) conversation.replace(record.messages, false);
      facts.loadable = typeof record.sessionId === "string" && record.sessionId !== "";
      if (facts.loadable) facts.sessionId = record.sessionId as string;
      else facts.headerless = true;
    }
    return { facts: settle(facts, meta, conversation), identity };
  } finally {
    closeSync(fd);
  }
}

/**
 * A server rescans every few seconds, and the sweep reads the same chats right after the scan: a
 * chat unchanged since is not read again.
 */
export const geminiChats = new FactsCache<GeminiChatFacts>("gemini-chat@1", (path) =>
  path.endsWith(".json") ? readLegacyChat(path) : readChatLines(path),
);

/** The facts of the chat at `path` (never through a symlink); throws when it cannot be read. */
export const readGeminiChat = (path: string) => geminiChats.get(path);
