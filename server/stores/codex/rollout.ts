// Reads what the retention policy needs from a Codex rollout (`rollout-<time>-<thread>.jsonl`, or
// its zstd-compressed `.jsonl.zst` form), streaming: the `session_meta` header on its first line
// (thread id, cwd, where it came from: `forked_from_id`, `parent_thread_id`, `source`) and, of every
// other line, only its first bytes — Codex writes `{"timestamp":…,"ordinal":…,"type":…,"payload":
// {"type":…,"role":…` — to count it by kind and take its time. A line is never held whole except
// the header (whose `base_instructions` can be large: past a cap its fields are read from its head).
// A rollout is read to the caps of read-caps.ts: at most MAX_LINES lines, and a `.zst` decoded to at
// most MAX_INFLATION times its size (a few KB of zstd can hold gigabytes of newlines).
//
// The decoder is fzstd's, not Node's own zstd (node:zlib, since Node 22.15): the adapters read
// synchronously, and Node's only synchronous zstd decodes a whole file into one buffer, while fzstd
// hands each decoded block over as it goes, so a read stops at a cap with what it took counted.
import { closeSync, readSync } from "node:fs";
import { Decompress } from "fzstd";
import { oneLine } from "../../../shared/session-title.js";
import type { FileIdentity } from "../../fs/file-identity.js";
import { openRegularFile } from "../../fs/open-regular-file.js";
import { inflationCap, MAX_LINES, type ReadCap } from "../read-caps.js";

/** The `session_meta` fields we use. Every one is optional: the format changes between versions. */
export interface RolloutHeader {
  id?: string;
  /** Of a subagent: the thread that spawned it. */
  parentThread?: string;
  /** Of a fork: the thread it was forked from (its history copied in). */
  forkedFrom?: string;
  /**
   * Of a fork written by a Codex with paginated history (0.169): the thread whose rollout holds the
   * history it inherits (`history_base.thread_id`) — read from that file, not copied into its own.
   */
  historyBase?: string;
  timestamp?: string;
  cwd?: string;
  /** `cli`, `vscode`, `exec`, `subagent`, … (a subagent's source is an object: "subagent"). */
  source?: string;
  nickname?: string;
  cliVersion?: string;
}

export interface RolloutFacts {
  /** Undefined when the first line is not a `session_meta` (or the file is empty). */
  header?: RolloutHeader;
  /** The header line was too long to parse whole: its fields come from its first bytes. */
  headerTooLong: boolean;
  /** Lines after the header. */
  lines: number;
  /** `response_item` messages by role (Codex's injected context is a user message too: never fewer). */
  counts: { user: number; assistant: number; other: number };
  firstAt?: string;
  lastAt?: string;
  corruptLines: number;
  /** The last line has no newline: cut off, or Codex is writing it. */
  truncatedLast: boolean;
  /** The first prompt the user typed, one short line (Codex's injected context skipped). */
  firstMessage?: string;
  /** Reading stopped at a cap (read-caps.ts): the facts are of what was read. */
  capped?: ReadCap;
}

/** A header longer than this is read from its first bytes only. */
const HEADER_CAP = 1024 * 1024;
/** How much of every other line is kept: its type, role and time are in its first bytes. */
const LINE_HEAD = 320;
const HEADER_HEAD = 64 * 1024;
/** How much of a line is kept until the first prompt is found: enough for a title's 80 characters. */
const PROMPT_HEAD = 2048;
const CHUNK = 1024 * 1024;

const TIMESTAMP = /"timestamp":"([^"]{10,40})"/;
const TYPE = /"type":"([a-z_]+)"/;
const ROLE = /"role":"([a-z]+)"/;
/** Where a prompt's text starts: a user message's `input_text`, or a `user_message` event's message. */
const PROMPT_START = /"type":"input_text","text":"|"type":"user_message","message":"/;
/**
 * What Codex puts in the conversation as user messages without the user typing them: the
 * environment, AGENTS.md and permission instructions, a turn aborted. Its resume picker skips them.
 */
const INJECTED =
  /^(?:<environment_context>|<user_instructions>|<permissions instructions>|<turn_aborted>|# AGENTS\.md instructions)/;

/** The start of a JSON string value cut anywhere (an escape or a character may be cut in half). */
function stringStart(raw: string): string | undefined {
  let end = 0;
  while (end < raw.length && raw[end] !== '"') end += raw[end] === "\\" ? 2 : 1;
  let body = raw.slice(0, Math.min(end, raw.length)).replace(/\uFFFD+$/, "");
  // Drop a cut escape (`\`, `\u12`) so the rest decodes.
  body = body.replace(/\\(?:u[0-9a-fA-F]{0,3})?$/, "");
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return undefined;
  }
}

/** The prompt in a line's first bytes, when it is one the user typed. */
function promptOf(head: Buffer): string | undefined {
  const text = head.toString("utf8");
  const at = PROMPT_START.exec(text);
  if (!at) return undefined;
  const role = ROLE.exec(text)?.[1];
  if (at[0].includes("input_text") && role !== "user") return undefined;
  const value = stringStart(text.slice(at.index + at[0].length));
  if (value === undefined || INJECTED.test(value.trimStart())) return undefined;
  return oneLine(value);
}

const str = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

function headerOf(meta: Record<string, unknown>): RolloutHeader {
  const source = meta.source;
  const header: RolloutHeader = {};
  const set = <K extends keyof RolloutHeader>(key: K, value: string | undefined) => {
    if (value !== undefined) header[key] = value;
  };
  set("id", str(meta.id));
  set("parentThread", str(meta.parent_thread_id));
  set("forkedFrom", str(meta.forked_from_id));
  const base = meta.history_base;
  set(
    "historyBase",
    typeof base === "object" && base !== null ? str((base as { thread_id?: unknown }).thread_id) : undefined,
  );
  set("timestamp", str(meta.timestamp));
  set("cwd", str(meta.cwd));
  set(
    "source",
    str(source) ??
      (typeof source === "object" && source !== null ? Object.keys(source as object)[0] : undefined),
  );
  set("nickname", str(meta.agent_nickname));
  set("cliVersion", str(meta.cli_version));
  return header;
}

/** The header's fields from its first bytes, when the line is too long to parse whole. */
function headerFromHead(head: string, tail: string): RolloutHeader | undefined {
  if (!/^\{[^{]*"type":"session_meta"/.test(head)) return undefined;
  const field = (name: string) => {
    const raw = new RegExp(`"${name}":"((?:[^"\\\\]|\\\\.)*)"`).exec(head)?.[1];
    if (raw === undefined) return undefined;
    try {
      return str(JSON.parse(`"${raw}"`));
    } catch {
      return undefined;
    }
  };
  const payload = head.slice(head.indexOf('"payload":'));
  const meta: Record<string, unknown> = {};
  for (const [key, name] of [
    ["id", "id"],
    ["parent_thread_id", "parent_thread_id"],
    ["forked_from_id", "forked_from_id"],
    ["cwd", "cwd"],
    ["agent_nickname", "agent_nickname"],
    ["cli_version", "cli_version"],
  ] as const)
    meta[key] = field(name);
  // The payload's own timestamp comes after its id; the line's is before "payload".
  meta.timestamp = new RegExp(`"timestamp":"([^"]+)"`).exec(payload)?.[1];
  meta.source = /"source":"([a-z_-]+)"/.exec(payload)?.[1] ?? /"source":\{"([a-z_-]+)"/.exec(payload)?.[1];
  // Codex writes `history_base` after `base_instructions`: at the line's end.
  const base = /"history_base":\{"thread_id":"([0-9a-fA-F-]{36})"/.exec(tail)?.[1];
  if (base) meta.history_base = { thread_id: base };
  return headerOf(meta);
}

/** Counts lines as their bytes arrive (from a file or from the zstd decoder), up to MAX_LINES. */
class LineCounter {
  readonly facts: RolloutFacts = {
    headerTooLong: false,
    lines: 0,
    counts: { user: 0, assistant: 0, other: 0 },
    corruptLines: 0,
    truncatedLast: false,
  };
  private line = 0;
  /** Lines read (blank ones included) and their bytes: what the line cap counts. */
  private read = { lines: 0, bytes: 0 };
  /** The kept start of the current line. */
  private head: Buffer[] = [];
  private headLength = 0;
  private length = 0;
  private lastByte = -1;
  /** The last bytes of a header too long to keep whole. */
  private headerTail = Buffer.alloc(0);

  /** Takes the next bytes; false once MAX_LINES lines are read and more came (the rest is not read). */
  push(bytes: Uint8Array): boolean {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let start = 0;
    for (let newline = buffer.indexOf(10, 0); newline !== -1; newline = buffer.indexOf(10, start)) {
      if (this.read.lines === MAX_LINES) return this.stop("lines");
      this.read.lines += 1;
      this.read.bytes += this.length + newline - start + 1;
      // A blank line is nothing to judge, before the header too (a file of newlines costs one step each).
      if (this.length === 0 && newline === start) {
        start = newline + 1;
        continue;
      }
      // A line whole in this chunk is judged where it is, without a copy (the usual case).
      if (this.length === 0 && this.line > 0)
        this.judge(
          buffer.subarray(start, Math.min(newline, start + this.headCap)),
          newline - start,
          newline > start ? buffer[newline - 1]! : -1,
        );
      else {
        this.take(buffer.subarray(start, newline));
        this.endLine();
      }
      start = newline + 1;
    }
    if (start < buffer.length) {
      if (this.read.lines === MAX_LINES) return this.stop("lines");
      this.take(buffer.subarray(start));
    }
    return true;
  }

  /** Reading stops at `cap`, after `bytes` (the whole lines' unless said): a line cut there is not counted. */
  stop(cap: ReadCap["cap"], bytes = this.read.bytes): false {
    this.facts.capped = { cap, lines: this.read.lines, bytes };
    return false;
  }

  end(): RolloutFacts {
    if (this.facts.capped)
      this.length = 0; // a line cut by the cap, not by the writer
    else if (this.length > 0) {
      this.facts.truncatedLast = true;
      this.endLine();
    }
    // Times are checked once, not per line.
    if (this.facts.lastAt !== undefined && Number.isNaN(Date.parse(this.facts.lastAt)))
      delete this.facts.lastAt;
    if (this.facts.firstAt !== undefined && Number.isNaN(Date.parse(this.facts.firstAt)))
      delete this.facts.firstAt;
    return this.facts;
  }

  /** A line's bytes judged: more until the first prompt is found. */
  private get headCap() {
    return this.facts.firstMessage === undefined ? PROMPT_HEAD : LINE_HEAD;
  }

  private take(bytes: Buffer) {
    if (bytes.length === 0) return;
    const cap = this.line === 0 ? HEADER_CAP + 1 : this.headCap;
    if (this.headLength < cap) {
      const kept = bytes.subarray(0, cap - this.headLength);
      this.head.push(Buffer.from(kept));
      this.headLength += kept.length;
    }
    if (this.line === 0)
      this.headerTail = Buffer.from(Buffer.concat([this.headerTail, bytes]).subarray(-HEADER_HEAD));
    this.length += bytes.length;
    this.lastByte = bytes[bytes.length - 1]!;
  }

  private endLine() {
    const head = Buffer.concat(this.head, this.headLength);
    const whole = this.length;
    const lastByte = this.lastByte;
    this.head = [];
    this.headLength = 0;
    this.length = 0;
    this.lastByte = -1;
    if (whole > 0 && this.line === 0) {
      this.line = 1;
      this.takeHeader(head, whole, lastByte === 0x7d);
    } else this.judge(head, whole, lastByte);
  }

  /** One line after the header, from its first bytes, its length and its last byte. */
  private judge(head: Buffer, whole: number, lastByte: number) {
    if (whole === 0) return; // a blank line
    this.line += 1;
    this.facts.lines += 1;
    if (head[0] !== 0x7b || lastByte !== 0x7d) {
      this.facts.corruptLines += 1;
      return;
    }
    const text = head.toString("latin1");
    const time = TIMESTAMP.exec(text)?.[1];
    if (time !== undefined) {
      this.facts.firstAt ??= time;
      this.facts.lastAt = time;
    }
    const type = TYPE.exec(text)?.[1];
    const role =
      type === "response_item" && text.includes('"payload":{"type":"message"')
        ? ROLE.exec(text)?.[1]
        : undefined;
    if (role === "user" || role === "assistant") this.facts.counts[role] += 1;
    else this.facts.counts.other += 1;
    if (this.facts.firstMessage === undefined && (role === "user" || type === "event_msg")) {
      const prompt = promptOf(head);
      if (prompt !== undefined) this.facts.firstMessage = prompt;
    }
  }

  private takeHeader(head: Buffer, whole: number, ended: boolean) {
    if (whole > HEADER_CAP) {
      this.facts.headerTooLong = true;
      const header = headerFromHead(
        head.subarray(0, HEADER_HEAD).toString("utf8"),
        this.headerTail.toString("utf8"),
      );
      if (header) this.facts.header = header;
      return;
    }
    let parsed: unknown;
    try {
      parsed = ended ? JSON.parse(head.toString("utf8")) : undefined;
    } catch {
      parsed = undefined;
    }
    const line = parsed as { type?: unknown; payload?: unknown; timestamp?: unknown } | undefined;
    if (line?.type === "session_meta" && typeof line.payload === "object" && line.payload !== null) {
      this.facts.header = headerOf(line.payload as Record<string, unknown>);
      const time = str(line.timestamp);
      if (time && !Number.isNaN(Date.parse(time))) this.facts.firstAt = this.facts.lastAt = time;
      return;
    }
    // Not a header (a file re-created by a Codex that lost it, a hand edit): an ordinary line.
    this.judge(head.subarray(0, LINE_HEAD), whole, ended ? 0x7d : 0);
  }
}

/** Thrown from inside the decoder to stop it at a cap (its state is not used again). */
const STOP = Symbol("stop");

/**
 * The facts of one rollout, read without following a symlink (nor waiting on a FIFO), up to the size
 * it had when opened (a rollout Codex appends to meanwhile is read as it was), and to the caps. A
 * `.jsonl.zst` is decoded as it is read.
 */
export function readRollout(path: string): { facts: RolloutFacts; identity: FileIdentity } {
  const { fd, identity } = openRegularFile(path);
  try {
    const counter = new LineCounter();
    let more = true;
    /** What the decoder may still hand over before the inflation cap. */
    let room = inflationCap(identity.size);
    const decoder = path.endsWith(".zst")
      ? new Decompress((chunk) => {
          more = counter.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
          if (more && chunk.length > room) more = counter.stop("inflation", inflationCap(identity.size));
          room -= chunk.length;
          if (!more) throw STOP;
        })
      : undefined;
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (let position = 0; position < identity.size && more;) {
      const read = readSync(fd, buffer, 0, Math.min(CHUNK, identity.size - position), position);
      if (read === 0) break;
      position += read;
      const bytes = buffer.subarray(0, read);
      if (!decoder) more = counter.push(bytes);
      else
        try {
          decoder.push(new Uint8Array(bytes), position >= identity.size);
        } catch (error) {
          if (error !== STOP) throw error;
        }
    }
    return { facts: counter.end(), identity };
  } finally {
    closeSync(fd);
  }
}
