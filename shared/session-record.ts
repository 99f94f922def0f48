// The one record every part of the product passes around: what we know about one session on disk.
import { z } from "zod";
import { STORE_KINDS, isFolderStore, type StoreKind } from "./store-kinds.js";

export { AGENT_LABELS, isFolderStore, STORE_KINDS } from "./store-kinds.js";
export const StoreKindSchema = z.enum(STORE_KINDS);

/** Whether a session (or a trash item, which may predate `folder`) is a folder moved as one unit. */
export const isFolderSession = (s: {
  folder?: boolean;
  storeKind?: StoreKind;
  store?: { kind: StoreKind };
}) => s.folder ?? isFolderStore(s.storeKind ?? s.store!.kind);
export type { StoreKind };

export const StoreRefSchema = z.object({
  kind: StoreKindSchema,
  /** Absolute path of the store's root folder. */
  root: z.string(),
});
export type StoreRef = z.infer<typeof StoreRefSchema>;

/**
 * Problems found while reading a session. The scan never stops for one of these: it records the
 * problem on the session it belongs to and goes on.
 */
export const SessionWarningCodeSchema = z.enum([
  "empty-file", // 0 bytes: pi never wrote the header
  "missing-header", // first line is not a session header
  "corrupt-line", // a line that is not a JSON object
  "truncated-last-line", // last line has no newline and is not a complete JSON object
  "line-too-long", // a line over the parse cap: counted, not parsed
  "unknown-version", // header version newer than we know
  "namespace-from-folder", // no usable header cwd: namespace guessed from the (lossy) folder name
  "non-utf8-name", // file name is not valid UTF-8; shown with replacement characters
  "duplicate-id", // another file carries the same session id
  "unreadable", // could not be opened or read
  "corrupt-meta", // its pi session-index file (sessions-meta/<id>.meta.json) is unusable
  "symlink-inside", // a session folder holds symlinks: not followed, not counted
  "read-capped", // reading stopped at a cap (lines a file, or a compressed file's expansion): the rest is not counted
  "resume-twin", // an empty copy of it (a part of its bundle) makes its agent delete it: remove the copy
]);
export type SessionWarningCode = z.infer<typeof SessionWarningCodeSchema>;

export const SessionWarningSchema = z.object({
  code: SessionWarningCodeSchema,
  message: z.string(),
  /** 1-based line number, for line-level problems (first occurrence when `count` > 1). */
  line: z.number().int().positive().optional(),
  /** How many lines had this problem, when more than one. */
  count: z.number().int().positive().optional(),
});
export type SessionWarning = z.infer<typeof SessionWarningSchema>;

/**
 * Message entries (`type: "message"`) by role; `other` holds the other roles (bashExecution,
 * custom, …). Their sum is what pi itself calls a session's message count.
 */
export const MessageCountsSchema = z.object({
  user: z.number().int().nonnegative(),
  assistant: z.number().int().nonnegative(),
  toolResult: z.number().int().nonnegative(),
  other: z.number().int().nonnegative(),
});
export type MessageCounts = z.infer<typeof MessageCountsSchema>;

const isoDate = z.iso.datetime({ offset: true });

/**
 * What "the same file, unchanged" means: device, inode, size and mtime in nanoseconds (a decimal
 * string: a double would round it). A deletion re-checks it just before moving the file.
 */
export const FingerprintSchema = z.object({
  dev: z.number().int().nonnegative(),
  ino: z.number().int().nonnegative(),
  size: z.number().int().nonnegative(),
  mtimeNs: z.string().regex(/^\d+$/),
});
export type Fingerprint = z.infer<typeof FingerprintSchema>;

export const SessionRecordSchema = z.object({
  /** pi's session uuid where known, else a stable id derived from the path. Unique within a scan. */
  id: z.string().min(1),
  store: StoreRefSchema,
  /** Absolute path. For a name that is not valid UTF-8, undecodable bytes show as U+FFFD. */
  path: z.string(),
  /** The session's real working directory (pi header `cwd`), or a guess from the folder name. */
  namespace: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  /** Header timestamp, else the file-name timestamp, else the file's birth time. */
  createdAt: isoDate,
  modifiedAt: isoDate,
  /** mtime by default (the deterministic default); the last entry's timestamp with `--precise`. */
  lastUsedAt: isoDate,
  fingerprint: FingerprintSchema,
  /** Entries after the header, of every type (model changes, labels, unknown types…), i.e. "line count − header". */
  messageCount: z.number().int().nonnegative(),
  messageCounts: MessageCountsSchema,
  /** Latest `session_info` name (an empty name clears it, as in pi). */
  name: z.string().optional(),
  /**
   * The first real user prompt, as one line of at most `FIRST_MESSAGE_CHARS` (session-title.ts):
   * what pi's picker shows for a session without a name. Agents' meta and command lines are skipped.
   */
  firstMessage: z.string().optional(),
  /**
   * The last prompt, as one line of at most `FIRST_MESSAGE_CHARS`, where the agent shows a session
   * without a name by it (Claude Code's session list, for a continued session): its title then.
   */
  lastPrompt: z.string().optional(),
  /**
   * When the agent's user archived it (Claude Code's `archived.json`), while it is archived: Claude
   * hides it from its session list until the user prompts in it again.
   */
  archivedAt: isoDate.optional(),
  /** From pi's session index (`sessions-meta/<id>.meta.json`), when there is one. */
  description: z.string().optional(),
  summary: z.string().optional(),
  tags: z.array(z.string()).optional(),
  /** The session-index file that belongs to this session: it moves with it on delete and restore. */
  metaFile: z.string().optional(),
  /**
   * The other files and folders of the session's bundle (a Claude session's subagents, tool
   * results, file history, env, todos, tasks, debug log): counted in `sizeBytes`, moved and
   * restored with it, all or nothing.
   */
  bundle: z.array(z.string()).optional(),
  /**
   * Files of its bundle that can be removed on their own, each by an id of its own (never a
   * session's): Gemini CLI's empty copy of a resumed chat, which makes Gemini delete the chat.
   */
  detachable: z
    .array(
      z.object({
        id: z.string().min(1),
        path: z.string(),
        sizeBytes: z.number().int().nonnegative(),
        fingerprint: FingerprintSchema,
        /** What it is, in a few words: "an empty copy left by a resume". */
        what: z.string(),
      }),
    )
    .optional(),
  /** Its `path` is a folder moved as one unit (agentsh, workspaces, a Claude bundle without a transcript). */
  folder: z.literal(true).optional(),
  /** Ids of forks that read their history from this session's file: it is kept while they exist. */
  neededBy: z.array(z.string()).optional(),
  /**
   * The file of the session this one was forked or copied from: pi's header `parentSession` (else
   * the index's `parentSessionFile`), a Codex fork's parent, a Claude Code branch or
   * `--fork-session` copy's parent. Lineage; a dependency only where `neededBy` says so.
   */
  parentSession: z.string().optional(),
  /**
   * The id of the first session of its family, on every session of a family of more than one: a
   * Codex thread with the forks made from it (and from them), each a session of its own. Shown
   * and chosen together.
   */
  family: z.string().optional(),
  /** Ids of the sessions forked from this one (their `parentSession` is this session's file). */
  forks: z.array(z.string()).optional(),
  /** Header version (1 when absent, as pi treats it). */
  version: z.number().int().optional(),
  warnings: z.array(SessionWarningSchema),
});
export type SessionRecord = z.infer<typeof SessionRecordSchema>;
