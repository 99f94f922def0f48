// Realistic Claude Code stores for tests, written from the formats Claude Code writes (its
// CHANGELOG and issue threads, and what 2.1.332's own code writes; docs/stores.md's "Claude Code"
// section) — never copied from a real machine — together with what a scan must find in them. The expectations are worked out from
// what was written (the lines, the bytes, the times), never by asking the adapter, so a test
// compares two independent accounts.
//
// One seed and one clock give the same bytes in any folder: paths inside the files name a made-up
// user `/home/dev`, not the folder the store is written to. The one exception is the live-process
// registry entry, which names the test's own pid so that it is alive.
import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { BASE62, BASE64_ALPHABET, Random } from "../server/demo/seeded-random.js";
import { oneLine } from "../shared/session-title.js";
import { FixtureFiles, newestTime } from "./fixture-files.js";

/** The fixed clock: every time in a generated store is before it (and before any real test run). */
export const CLAUDE_NOW = Date.parse("2026-03-02T09:00:00.000Z");
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 86_400_000;
/** Lines longer than this are too long for the adapter to parse (a `line-too-long` warning). */
export const PARSE_CAP = 256 * 1024;
/** Where the made-up user keeps Claude's folder, as the files' own contents name it. */
const FAKE_CLAUDE = "/home/dev/.claude";

/** Claude Code's project folder for a cwd: every character but a letter or digit becomes `-` (lossy). */
export const claudeFolderName = (cwd: string) => cwd.replace(/[^a-zA-Z0-9]/g, "-");

const uuidV4 = (r: Random) =>
  `${r.hex(8)}-${r.hex(4)}-4${r.hex(3)}-${r.pick(["8", "9", "a", "b"])}${r.hex(3)}-${r.hex(12)}`;

const WORDS = (
  "checkout cart refactor flaky test migration index schema retry timeout parser cache invoice " +
  "webhook queue worker deploy config lint types route handler fixture snapshot bundle release"
).split(" ");
const sentence = (r: Random, words: number) => Array.from({ length: words }, () => r.pick(WORDS)).join(" ");

// ---------------------------------------------------------------------------------------------
// Transcript lines: one small builder per kind of line, fields in the order Claude Code writes them
// ---------------------------------------------------------------------------------------------

export type Line = Record<string, unknown>;

export interface SessionContext {
  id: string;
  cwd: string;
  version: string;
  gitBranch: string;
}

/**
 * One session's transcript, line by line: each message is chained to the one before by
 * `parentUuid`, and the clock moves on a little with every timestamped line.
 */
export class Transcript {
  readonly lines: Line[] = [];
  /** The session whose file this one reads its history from (a fork pointer), if any. */
  forkOf?: string;
  /** The session this one was copied from by `/branch` (`forkedFrom`): lineage, no dependency. */
  branchOf?: string;
  /** The session `--fork-session` copied this one from (its copied replies name it): lineage only. */
  copyOf?: string;
  /** The working directory `/cd` moved the session to last: its transcript is in that project's folder. */
  movedTo?: string;
  /** Ids of the tool calls whose output went to the session's `tool-results/` folder. */
  readonly spilled: string[] = [];
  private last: string | null = null;
  private extra: Line = {};

  constructor(
    private readonly random: Random,
    readonly session: SessionContext,
    private clock: number,
  ) {}

  /**
   * Fields every conversational line carries from now on: `forkedFrom` after a `/branch`, a new
   * `sessionId` after `--continue`.
   */
  from(fields: Line) {
    this.extra = { ...this.extra, ...fields };
    return this;
  }

  private stamp() {
    this.clock += this.random.int(2, 90) * SECOND;
    return new Date(this.clock).toISOString();
  }

  private add(line: Line) {
    this.lines.push(line);
    return this;
  }

  /** What a conversational line starts with: its place in the chain and where it was written. */
  private envelope() {
    const { id, cwd, version, gitBranch } = this.session;
    return {
      parentUuid: this.last,
      isSidechain: false,
      userType: "external",
      cwd,
      sessionId: id,
      version,
      gitBranch,
      ...this.extra,
    };
  }

  private message(type: "user" | "assistant" | "system", body: Line) {
    const uuid = uuidV4(this.random);
    // A user line names its type before its message, an assistant line after (its message has a
    // `type` of its own); the uuid and the timestamp come last, as in Claude's files.
    const line =
      type === "assistant"
        ? { ...this.envelope(), ...body, type, uuid, timestamp: this.stamp() }
        : { ...this.envelope(), type, ...body, uuid, timestamp: this.stamp() };
    this.last = uuid;
    return this.add(line);
  }

  /** Claude's summary of an earlier conversation: no cwd, no time, often the first line. */
  summary(text: string) {
    return this.add({ type: "summary", summary: text, leafUuid: uuidV4(this.random) });
  }

  /** The `/rewind` checkpoint index: no session id, no cwd; its time is inside the snapshot. */
  snapshot(files: number) {
    const messageId = uuidV4(this.random);
    const trackedFileBackups = Object.fromEntries(
      Array.from({ length: files }, (_, i) => [
        `${this.session.cwd}/src/${this.random.pick(WORDS)}-${i}.ts`,
        {
          backupFileName: `${this.random.hex(16)}@v1`,
          version: 1,
          backupTime: new Date(this.clock).toISOString(),
        },
      ]),
    );
    return this.add({
      type: "file-history-snapshot",
      messageId,
      snapshot: { messageId, trackedFileBackups, timestamp: new Date(this.clock).toISOString() },
      isSnapshotUpdate: false,
    });
  }

  /** A pull request opened from the session: an id and a time, no cwd (anthropics/claude-code#62851). */
  prLink(number: number) {
    return this.add({
      type: "pr-link",
      sessionId: this.session.id,
      prNumber: number,
      prUrl: `https://github.com/dev/shop/pull/${number}`,
      prRepository: "dev/shop",
      timestamp: new Date(this.clock).toISOString(),
    });
  }

  /** A name given with `/rename`: metadata, no cwd and no time. */
  customTitle(title: string) {
    return this.add({ type: "custom-title", customTitle: title, sessionId: this.session.id });
  }

  /** The title Claude gave the session itself: metadata, no cwd and no time */
  aiTitle(title: string) {
    return this.add({ type: "ai-title", aiTitle: title, sessionId: this.session.id });
  }

  /**
   * The prompt Claude's session list shows for the session (2.1.332 writes it after each turn, and
   * again when a session is continued): metadata naming the last message, no cwd and no time.
   */
  lastPrompt(text: string) {
    return this.add({
      type: "last-prompt",
      lastPrompt: text,
      leafUuid: this.last,
      sessionId: this.session.id,
    });
  }

  /**
   * `/cd`: the session goes on in another directory, and Claude moves its transcript (and its
   * folder) into that directory's project folder, stamping where it went. Its lines from then on
   * carry the new cwd.
   */
  relocated(cwd: string) {
    this.movedTo = cwd;
    this.from({ cwd });
    return this.add({ type: "relocated", sessionId: this.session.id, relocatedCwd: cwd });
  }

  /**
   * `claude --resume <parent> --fork-session`, as 2.1.332 writes it: a new session whose file opens
   * with a copy of the parent's messages under the new session's id, each copied reply marked with
   * the session that asked for it (`requestSessionId`: a mark it already had, else where it was
   * branched from, else its session), and goes on under its own.
   */
  copiedFrom(parent: Transcript) {
    this.copyOf = parent.session.id;
    for (const line of parent.lines)
      if (line.type === "user") this.lines.push({ ...line, sessionId: this.session.id });
      else if (line.type === "assistant")
        this.lines.push({
          ...line,
          sessionId: this.session.id,
          requestSessionId:
            line.requestSessionId ?? (line.forkedFrom as Line | undefined)?.sessionId ?? line.sessionId,
        });
    this.last = (this.lines.at(-1)?.uuid as string | undefined) ?? null;
    return this;
  }

  user(text: string) {
    return this.message("user", { message: { role: "user", content: text } });
  }

  assistant(text: string, content: Line[] = [{ type: "text", text }]) {
    return this.message("assistant", {
      message: {
        id: `msg_01${this.random.chars(BASE62, 22)}`,
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5-20250929",
        content,
        stop_reason: content.some((c) => c.type === "tool_use") ? "tool_use" : "end_turn",
        stop_sequence: null,
        usage: {
          input_tokens: this.random.int(3, 400),
          cache_creation_input_tokens: this.random.int(0, 5000),
          cache_read_input_tokens: this.random.int(0, 90_000),
          output_tokens: this.random.int(20, 2000),
          service_tier: "standard",
        },
      },
      requestId: `req_011C${this.random.chars(BASE62, 20)}`,
    });
  }

  /** A copy made by `/branch`: every line names the session and message it was copied from. */
  branchedFrom(parent: string) {
    this.branchOf = parent;
    return this.from({ forkedFrom: { sessionId: parent, messageUuid: uuidV4(this.random) } });
  }

  /**
   * A fork that reads its history from its parent's file: a `fork-context-ref` line naming the
   * parent first. Its fields are not documented; readers disagree on the parent's field name,
   * so both shapes can be written.
   */
  forkPointer(parent: string, field: "parentSessionId" | "forkedSessionId" = "parentSessionId") {
    this.forkOf = parent;
    const upTo = uuidV4(this.random);
    return this.add({
      type: "fork-context-ref",
      sessionId: this.session.id,
      ...(field === "parentSessionId"
        ? { parentSessionId: parent, parentLastUuid: upTo }
        : { forkedSessionId: parent, upToMessageId: upTo }),
    });
  }

  /** A Bash call and its result; with `spill`, the output went to the session's `tool-results/` folder. */
  toolCall(command: string, output: string, spill = false) {
    const id = `toolu_01${this.random.chars(BASE62, 22)}`;
    const { cwd, id: session } = this.session;
    if (spill) this.spilled.push(id);
    const spilledTo = `${FAKE_CLAUDE}/projects/${claudeFolderName(cwd)}/${session}/tool-results/${id}.txt`;
    this.assistant("", [
      { type: "tool_use", id, name: "Bash", input: { command, description: `Run ${command}` } },
    ]);
    return this.message("user", {
      message: {
        role: "user",
        content: [{ tool_use_id: id, type: "tool_result", content: output, is_error: false }],
      },
      toolUseResult: {
        stdout: output,
        stderr: "",
        interrupted: false,
        isImage: false,
        ...(spill ? { persistedOutputPath: spilledTo } : {}),
      },
    });
  }

  /** Claude writing a file: the whole content is in the assistant line's `tool_use` input. */
  writeFile(path: string, content: string) {
    const id = `toolu_01${this.random.chars(BASE62, 22)}`;
    this.assistant("", [{ type: "tool_use", id, name: "Write", input: { file_path: path, content } }]);
    return this.message("user", {
      message: {
        role: "user",
        content: [{ tool_use_id: id, type: "tool_result", content: `File created successfully at: ${path}` }],
      },
    });
  }

  /** A screenshot pasted into the prompt: one user line of about `bytes` of base64. */
  pastedImage(bytes: number, text: string) {
    return this.message("user", {
      message: {
        role: "user",
        content: [
          {
            type: "image",
            source: {
              type: "base64",
              media_type: "image/png",
              data: this.random.chars(BASE64_ALPHABET, bytes),
            },
          },
          { type: "text", text },
        ],
      },
    });
  }

  /** A slash command's output, shown in the conversation: a `system` line (cwd and time, not a message). */
  system(text: string) {
    return this.message("system", { subtype: "local_command", content: text, level: "info" });
  }

  /**
   * `/compact`, as 2.1.332 writes it: a `compact_boundary` system line that starts a new chain
   * (`parentUuid` null, `logicalParentUuid` the message before it), then the summary as a user line
   * (`isCompactSummary`) that the conversation goes on from.
   */
  compacted(summary: string) {
    const before = this.last;
    this.last = null;
    this.message("system", {
      subtype: "compact_boundary",
      content: "Conversation compacted",
      isMeta: false,
      level: "info",
      logicalParentUuid: before,
      compactMetadata: { trigger: "manual", preTokens: this.random.int(50_000, 180_000) },
    });
    return this.message("user", {
      message: {
        role: "user",
        content: `This session is being continued from a previous conversation. ${summary}`,
      },
      isCompactSummary: true,
    });
  }

  /**
   * A prompt edited or rewound to (`/rewind`): the next message continues from the message `back`
   * messages before the last, so the conversation branches there.
   */
  rewind(back: number) {
    const chained = this.lines.filter((line) => typeof line.uuid === "string");
    this.last = chained.at(-1 - back)!.uuid as string;
    return this;
  }

  /** `turns` questions and answers, one of them with a tool call. */
  conversation(turns: number) {
    for (let t = 0; t < turns; t++) {
      this.user(`${sentence(this.random, 6)}?`);
      if (t === 1) this.toolCall("npm test", `${sentence(this.random, 30)}\n`);
      this.assistant(sentence(this.random, this.random.int(10, 60)));
    }
    return this;
  }

  /** The file as Claude writes it: one JSON object per line, each line ended. */
  text() {
    return this.lines.map((line) => `${JSON.stringify(line)}\n`).join("");
  }

  get lastMs() {
    return this.clock;
  }
}

// ---------------------------------------------------------------------------------------------
// What a scan must find
// ---------------------------------------------------------------------------------------------

export interface ExpectedSession {
  uuid: string;
  id: string;
  path: string;
  namespace: string;
  createdAt: string;
  modifiedAt: string;
  lastUsedAt: string;
  messageCount: number;
  messageCounts: { user: number; assistant: number; toolResult: 0; other: number };
  name?: string;
  /** The last prompt, one line, when there is one and it is not the first prompt. */
  lastPrompt?: string;
  /** When it was archived, while it is. */
  archivedAt?: string;
  /** Warning codes, sorted. */
  warnings: string[];
  /** Absolute paths of the other parts, sorted. */
  bundle: string[];
  sizeBytes: number;
  /** The fork's parent transcript, when the parent is in the store. */
  parentSession?: string;
  /** Ids of the forks that read from this session, sorted. */
  neededBy: string[];
}

export interface ExpectedOrphan {
  uuid: string;
  id: string;
  /** The first part: the project `<uuid>/` folder, else file-history, session-env, tasks, debug, todos. */
  path: string;
  folder: boolean;
  /** The other parts, in that order. */
  bundle: string[];
  sizeBytes: number;
  /** The newest time of anything in it. */
  modifiedAt: string;
}

/** A transcript `/cd` set aside: an item of its own. */
export interface ExpectedSetAside {
  id: string;
  path: string;
  namespace: string;
  name: string;
  sizeBytes: number;
  modifiedAt: string;
}

export interface ExpectedProblem {
  code: "not-a-session" | "symlink";
  path: string;
  bytes?: number;
}

export interface RegistryEntry {
  pid: number;
  sessionId: string;
  file: string;
}

/** What a scan of a written store must find. */
export interface ClaudeStoreFacts {
  /** The folder standing for home: `.claude/` and `.claude.json` are in it. */
  home: string;
  /** The Claude config folder: the store root. */
  root: string;
  sessions: ExpectedSession[];
  orphans: ExpectedOrphan[];
  setAside: ExpectedSetAside[];
  problems: ExpectedProblem[];
  /**
   * The temp folder the store's sessions' temp folders are in (`<home>/tmp`): a scan finds them with
   * `CLAUDE_CODE_TMPDIR` naming it.
   */
  tempDir: string;
  /** Claude's own files and folders: never part of a session, never reported, never moved. */
  neverMoved: string[];
}

export interface ClaudeStore extends ClaudeStoreFacts {
  /** `sessions/<pid>.json`: one for a live process (this one), one left behind by a dead one. */
  registry: { live: RegistryEntry; dead: RegistryEntry };
}

/** The parts of a bundle, in the order an orphan's parts are listed. */
const PART_ORDER = [
  "project",
  "sibling",
  "legacy-agent",
  "file-history",
  "session-env",
  "tasks",
  "uploads",
  "image-cache",
  "debug",
  "todos",
  "job",
  "temp",
] as const;
type PartKind = (typeof PART_ORDER)[number];
const FOLDER_PARTS = new Set<PartKind>([
  "project",
  "file-history",
  "session-env",
  "tasks",
  "uploads",
  "image-cache",
  "job",
  "temp",
]);

/** What a session's folder says of it: its title, its archive state (as `archived.json` has it). */
interface SessionState {
  title?: string;
  archived?: { archived: boolean; at: number };
}

/** Our uid, as Claude Code names its temp root after it. */
const UID = process.getuid?.() ?? 0;

// ---------------------------------------------------------------------------------------------
// The builder: writes files, remembers their bytes and times, and keys every side file by session
// ---------------------------------------------------------------------------------------------

interface SavedTranscript {
  transcript: Transcript;
  path: string;
  folder: string;
  mtimeMs: number;
}

export class ClaudeStoreBuilder extends FixtureFiles {
  readonly root: string;
  readonly random: Random;
  private readonly transcripts = new Map<string, SavedTranscript>();
  private readonly parts = new Map<string, Array<{ kind: PartKind; path: string }>>();
  private readonly kept: string[] = [];
  private readonly problems: ExpectedProblem[] = [];
  private readonly states = new Map<string, SessionState>();
  private readonly setAsides: ExpectedSetAside[] = [];
  /** Where the sessions' temp folders go (Claude's temp root is `claude-<uid>` in it). */
  readonly tempDir: string;

  constructor(
    readonly home: string,
    seed = 20_260_302,
  ) {
    super();
    this.root = join(home, ".claude");
    this.tempDir = join(home, "tmp");
    this.random = new Random(seed);
    mkdirSync(this.root, { recursive: true });
  }

  /** A new session in `cwd`, started `daysAgo` before the fixed clock. */
  session(cwd: string, daysAgo: number, options: { version?: string; id?: string } = {}) {
    const context = {
      id: options.id ?? uuidV4(this.random),
      cwd,
      version: options.version ?? "2.1.140",
      gitBranch: this.random.pick(["main", "feature/checkout", ""]),
    };
    return new Transcript(this.random.child(), context, CLAUDE_NOW - daysAgo * DAY);
  }

  /**
   * Writes the transcript into the project folder Claude names after its cwd. Its mtime is a few
   * seconds after its last line, or `touchedAfterMs` later still: a file's time is not when it
   * was last used.
   */
  save(t: Transcript, options: { touchedAfterMs?: number } = {}) {
    const folder = claudeFolderName(t.movedTo ?? t.session.cwd);
    const path = join(this.root, "projects", folder, `${t.session.id}.jsonl`);
    const mtimeMs = t.lastMs + 3 * SECOND + (options.touchedAfterMs ?? 0);
    this.file(path, t.text(), mtimeMs);
    this.transcripts.set(t.session.id, { transcript: t, path, folder, mtimeMs });
    return path;
  }

  private part(uuid: string, kind: PartKind, path: string) {
    const parts = this.parts.get(uuid) ?? [];
    if (!parts.some((p) => p.path === path)) this.parts.set(uuid, [...parts, { kind, path }]);
    return path;
  }

  /**
   * What 2.1.332 keeps in a session's folder besides its subagents: the prefix it last sent, the
   * head of the transcript that speeds up a resume, the auto-mode classifier's last error, MCP
   * tasks, remote agents, the copy kept before a rewrite (`CLAUDE_CODE_TRANSCRIPT_LOCAL_GC=keep`),
   * a terminal recording; and, when given, its title (`/rename` from the desktop) and archive state.
   */
  sessionState(uuid: string, folder: string, atMs: number, state: SessionState = {}) {
    const dir = join(this.root, "projects", folder, uuid);
    const at = (ms: number) => new Date(ms).toISOString();
    this.file(join(dir, "sent-prefix.json"), JSON.stringify({ hash: this.random.hex(16), rows: 12 }), atMs);
    this.file(
      join(dir, "resume-head.jsonl"),
      `${JSON.stringify({ type: "resume-head", rows: 12, bytes: 48_213, at: at(atMs) })}\n`,
      atMs,
    );
    this.file(
      join(dir, "auto-mode-classifier-error.txt"),
      "classifier unavailable: 503 Service Unavailable\n",
      atMs + SECOND,
    );
    this.file(
      join(dir, "mcp-tasks", `task_${this.random.hex(12)}.json`),
      JSON.stringify({ server: "linear", status: "completed", result: sentence(this.random, 20) }),
      atMs + 2 * SECOND,
    );
    this.file(
      join(dir, "remote-agents", `agent_${this.random.hex(12)}.json`),
      JSON.stringify({ status: "done", url: "https://claude.ai/code/session_01" }),
      atMs + 3 * SECOND,
    );
    this.file(
      join(dir, "before-cleanup", `${atMs}-${this.random.hex(8)}.jsonl.replaced`),
      `${JSON.stringify({ type: "user", sessionId: uuid, message: { role: "user", content: "old" } })}\n`,
      atMs + 4 * SECOND,
    );
    this.file(join(dir, `${atMs}.cast`), asciicast(this.random, atMs), atMs + 5 * SECOND);
    if (state.title !== undefined)
      this.file(
        join(dir, "custom-title.json"),
        JSON.stringify({ customTitle: state.title, by: "user", at: at(atMs) }),
        atMs,
      );
    if (state.archived !== undefined)
      this.file(
        join(dir, "archived.json"),
        JSON.stringify({ archived: state.archived.archived, at: at(state.archived.at), by: "user" }),
        state.archived.at,
      );
    this.states.set(uuid, { ...this.states.get(uuid), ...state });
    return this.part(uuid, "project", dir);
  }

  /**
   * The files 2.1.332 keeps beside a transcript, named after its session: the remote session's tip
   * (`.ccr-tip.json`), the pre-compaction marker, the desktop app's release marker, and a terminal
   * recording as versions before it wrote it (`<id>-<stamp>.cast`).
   */
  siblings(uuid: string, folder: string, atMs: number) {
    const dir = join(this.root, "projects", folder);
    const put = (name: string, content: string, ms: number) =>
      this.part(uuid, "sibling", this.file(join(dir, name), content, ms));
    put(`${uuid}.ccr-tip.json`, JSON.stringify({ uuid: uuidV4(this.random), at: atMs }), atMs);
    put(`${uuid}.precompact.json`, JSON.stringify({ tokens: 182_311, at: atMs }), atMs + SECOND);
    put(`${uuid}.desktop-released.json`, JSON.stringify({ reason: "archive" }), atMs + 2 * SECOND);
    put(`${uuid}-${atMs}.cast`, asciicast(this.random, atMs), atMs + 3 * SECOND);
  }

  /** `claude --bg`: the background job's folder, named by the first 8 characters of the session's id. */
  job(uuid: string, atMs: number) {
    const dir = join(this.root, "jobs", uuid.slice(0, 8));
    this.file(
      join(dir, "state.json"),
      JSON.stringify({
        short: uuid.slice(0, 8),
        sessionId: uuid,
        state: "done",
        createdAt: atMs,
        updatedAt: atMs,
      }),
      atMs,
    );
    this.file(
      join(dir, "timeline.jsonl"),
      ["started", "done"].map((kind, i) => `${JSON.stringify({ kind, at: atMs + i * SECOND })}\n`).join(""),
      atMs + SECOND,
    );
    return this.part(uuid, "job", dir);
  }

  /**
   * The session's temp folder outside `~/.claude`: `<temp>/claude-<uid>/<project folder>/<id>/`, with
   * a background task's output and the scratchpad.
   */
  tempFolder(uuid: string, folder: string, atMs: number) {
    const dir = join(this.tempDir, `claude-${UID}`, folder, uuid);
    this.file(join(dir, "tasks", `b${this.random.hex(7)}.output`), `${sentence(this.random, 200)}\n`, atMs);
    this.file(join(dir, "scratchpad", "notes.md"), "- try the retry\n", atMs + SECOND);
    return this.part(uuid, "temp", dir);
  }

  /**
   * A transcript of the session `/cd` found in the project folder it moved into, set aside as
   * `<id>.jsonl.superseded-<ms>`: an item of its own.
   */
  setAside(t: Transcript, folder: string, atMs: number) {
    const name = `${t.session.id}.jsonl.superseded-${atMs}`;
    const path = this.file(join(this.root, "projects", folder, name), t.text(), atMs);
    const cwd = (t.lines.findLast((l) => l.type === "relocated")?.relocatedCwd ??
      t.lines.find((l) => typeof l.cwd === "string")?.cwd) as string | undefined;
    this.setAsides.push({
      id: `claude-set-aside:${folder}/${name}`,
      path,
      namespace: "(set aside by Claude Code relocations)",
      name: `Set aside by a Claude Code relocation into ${cwd ?? folder}`,
      sizeBytes: Buffer.byteLength(t.text()),
      modifiedAt: new Date(atMs).toISOString(),
    });
    return path;
  }

  /** `projects/<folder>/<uuid>/`: subagent transcripts and their meta, spilled tool output, a workflow. */
  sessionFolder(
    uuid: string,
    folder: string,
    cwd: string,
    atMs: number,
    spilled = [`toolu_01${this.random.chars(BASE62, 22)}`],
  ) {
    const dir = join(this.root, "projects", folder, uuid);
    const agent = this.random.hex(17);
    const sidechain = [0, 1, 2].map((i) =>
      JSON.stringify({
        parentUuid: null,
        isSidechain: true,
        userType: "external",
        cwd,
        sessionId: uuid,
        version: "2.1.140",
        agentId: agent,
        type: i % 2 === 0 ? "user" : "assistant",
        message: { role: i % 2 === 0 ? "user" : "assistant", content: sentence(this.random, 12) },
        uuid: uuidV4(this.random),
        timestamp: new Date(atMs + i * SECOND).toISOString(),
      }),
    );
    this.file(join(dir, "subagents", `agent-${agent}.jsonl`), `${sidechain.join("\n")}\n`, atMs + 3 * SECOND);
    this.file(
      join(dir, "subagents", `agent-${agent}.meta.json`),
      JSON.stringify({ agentType: "Explore", description: "Find the checkout handlers", spawnDepth: 1 }),
      atMs,
    );
    this.file(
      join(dir, "subagents", "journal.jsonl"),
      ["started", "result"].map((type) => `${JSON.stringify({ type, agentId: agent })}\n`).join(""),
      atMs + 4 * SECOND,
    );
    for (const id of spilled)
      this.file(join(dir, "tool-results", `${id}.txt`), sentence(this.random, 900), atMs);
    this.file(
      join(dir, "workflows", `wf_${this.random.hex(12)}.json`),
      JSON.stringify({ status: "completed", steps: 3 }),
      atMs + 5 * SECOND,
    );
    return this.part(uuid, "project", dir);
  }

  /** `file-history/<uuid>/<16 hex>@v<N>`: the files as they were before Claude edited them. */
  fileHistory(uuid: string, atMs: number) {
    const dir = join(this.root, "file-history", uuid);
    const key = this.random.hex(16);
    for (const v of [1, 2])
      this.file(join(dir, `${key}@v${v}`), `export const v = ${v};\n`.repeat(40), atMs + v * MINUTE);
    return this.part(uuid, "file-history", dir);
  }

  /** `session-env/<uuid>/`: what a SessionStart hook exported; often left empty. */
  sessionEnv(uuid: string, atMs: number, options: { empty?: boolean } = {}) {
    const dir = join(this.root, "session-env", uuid);
    if (options.empty) this.folder(dir, atMs);
    else this.file(join(dir, "sessionstart-hook-0.sh"), "export NODE_ENV=development\n", atMs);
    return this.part(uuid, "session-env", dir);
  }

  /** `tasks/<uuid>/`: the session's task list, one file per task, and the (empty) lock Claude takes on it. */
  tasks(uuid: string, atMs: number) {
    const dir = join(this.root, "tasks", uuid);
    this.file(join(dir, ".lock"), "", atMs);
    for (const n of [1, 2])
      this.file(
        join(dir, `${n}.json`),
        JSON.stringify({ id: String(n), subject: sentence(this.random, 4), status: "completed", blocks: [] }),
        atMs + n * SECOND,
      );
    return this.part(uuid, "tasks", dir);
  }

  /** `uploads/<uuid>/`: files attached to the session. */
  uploads(uuid: string, atMs: number) {
    const dir = join(this.root, "uploads", uuid);
    this.file(join(dir, "spec.pdf"), Buffer.from(this.random.hex(3000), "hex"), atMs);
    return this.part(uuid, "uploads", dir);
  }

  /** `image-cache/<uuid>/`: the session's images (Claude's own cleanup empties it at any age). */
  imageCache(uuid: string, atMs: number) {
    const dir = join(this.root, "image-cache", uuid);
    this.file(join(dir, "1.png"), Buffer.from(this.random.hex(4000), "hex"), atMs);
    return this.part(uuid, "image-cache", dir);
  }

  /** `debug/<uuid>.txt`, written with `--debug`. */
  debugLog(uuid: string, atMs: number) {
    const lines = Array.from(
      { length: 20 },
      (_, i) => `${new Date(atMs + i).toISOString()} [DEBUG] ${sentence(this.random, 8)}`,
    );
    return this.part(
      uuid,
      "debug",
      this.file(join(this.root, "debug", `${uuid}.txt`), `${lines.join("\n")}\n`, atMs),
    );
  }

  /**
   * A legacy todo list (no longer written): `todos/<uuid>-agent-<agent>.json` — the main agent's
   * id is the session's — or, without an agent, `todos/<uuid>.json`.
   */
  todos(uuid: string, agent: string | undefined, atMs: number) {
    const name = agent === undefined ? `${uuid}.json` : `${uuid}-agent-${agent}.json`;
    const items = [{ content: sentence(this.random, 5), status: "completed", activeForm: "Working" }];
    return this.part(uuid, "todos", this.file(join(this.root, "todos", name), JSON.stringify(items), atMs));
  }

  /** A subagent transcript of Claude Code before 2.1.2: `agent-<8 hex>.jsonl` beside its parent's. */
  legacyAgent(uuid: string, folder: string, cwd: string, atMs: number) {
    const agent = this.random.hex(8);
    const lines = [0, 1].map((i) =>
      JSON.stringify({
        parentUuid: null,
        isSidechain: true,
        userType: "external",
        cwd,
        sessionId: uuid,
        version: "1.0.98",
        gitBranch: "main",
        agentId: agent,
        type: i === 0 ? "user" : "assistant",
        message: { role: i === 0 ? "user" : "assistant", content: sentence(this.random, 10) },
        uuid: uuidV4(this.random),
        timestamp: new Date(atMs + i * SECOND).toISOString(),
      }),
    );
    const path = join(this.root, "projects", folder, `agent-${agent}.jsonl`);
    return this.part(uuid, "legacy-agent", this.file(path, `${lines.join("\n")}\n`, atMs + SECOND));
  }

  /** A file or folder of Claude's own, not of any session. */
  keep(path: string, content?: string | Buffer, atMs = CLAUDE_NOW - 3 * DAY) {
    if (content === undefined) this.folder(path, atMs);
    else this.file(path, content, atMs);
    this.kept.push(path);
    return path;
  }

  /** Something in `projects/` that is not a session: reported by the scan, never moved. */
  stray(path: string, content: string | undefined, atMs = CLAUDE_NOW - 20 * DAY) {
    this.keep(path, content, atMs);
    this.problems.push({
      code: "not-a-session",
      path,
      ...(content !== undefined ? { bytes: Buffer.byteLength(content) } : {}),
    });
    return path;
  }

  /** A symlink, never followed; `reported` where the scan must name it (inside `projects/`). */
  link(path: string, target: string, reported = false) {
    mkdirSync(dirname(path), { recursive: true });
    symlinkSync(target, path);
    this.kept.push(path);
    if (reported) this.problems.push({ code: "symlink", path });
    return path;
  }

  /** A `sessions/<pid>.json` live-process registry entry. */
  registry(pid: number, uuid: string, startedAtMs: number): RegistryEntry {
    const cwd = this.transcripts.get(uuid)?.transcript.session.cwd ?? "/home/dev";
    const file = this.keep(
      join(this.root, "sessions", `${pid}.json`),
      JSON.stringify({
        pid,
        sessionId: uuid,
        cwd,
        startedAt: startedAtMs,
        procStart: procStart(pid),
        version: "2.1.140",
        kind: "interactive",
        entrypoint: "cli",
        status: "idle",
        updatedAt: startedAtMs + 5 * MINUTE,
      }),
      startedAtMs,
    );
    return { pid, sessionId: uuid, file };
  }

  /**
   * Gives every folder the newest time inside it (an empty one, the time it was made with), so the
   * tree is the same on every run; then works out what a scan must find.
   */
  finish(): ClaudeStoreFacts {
    this.settleFolderTimes(this.home, CLAUDE_NOW - 400 * DAY);
    const sessions = [...this.transcripts.values()].map((saved) => this.expectSession(saved));
    const byUuid = new Map(sessions.map((s) => [s.uuid, s]));
    for (const session of sessions) {
      const { forkOf, branchOf, copyOf } = this.transcripts.get(session.uuid)!.transcript;
      const reads = forkOf === undefined ? undefined : byUuid.get(forkOf);
      const parent =
        reads ?? byUuid.get(branchOf ?? "") ?? (copyOf === undefined ? undefined : byUuid.get(copyOf));
      if (!parent) continue;
      session.parentSession = parent.path;
      if (parent === reads) parent.neededBy = [...parent.neededBy, session.id].sort();
    }
    // Jobs and temp folders join a session only: without one they are Claude's to tidy.
    const orphans = [...this.parts].flatMap(([uuid, parts]) => {
      const own = parts.filter((p) => p.kind !== "job" && p.kind !== "temp");
      return this.transcripts.has(uuid) || own.length === 0 ? [] : [this.expectOrphan(uuid, own)];
    });
    return {
      home: this.home,
      root: this.root,
      sessions,
      orphans,
      setAside: this.setAsides,
      problems: this.problems,
      neverMoved: this.kept,
      tempDir: this.tempDir,
    };
  }

  private expectSession({ transcript, path, folder, mtimeMs }: SavedTranscript): ExpectedSession {
    const { lines } = transcript;
    const uuid = transcript.session.id;
    const times = lines.flatMap((l) => (typeof l.timestamp === "string" ? [l.timestamp] : []));
    // Without a single timestamp in it, a transcript's times are its file's.
    const fileTime = new Date(mtimeMs).toISOString();
    const bundle = (this.parts.get(uuid) ?? []).map((p) => p.path).sort();
    // The session changed when any part of it did: a subagent writes only in the session's folder.
    const modifiedAt = new Date(Math.max(mtimeMs, ...bundle.map(newestTime))).toISOString();
    // Where `/cd` last moved it, else where it began.
    const cwd = (lines.findLast((l) => l.type === "relocated")?.relocatedCwd ??
      lines.find((l) => typeof l.cwd === "string")?.cwd) as string | undefined;
    const count = (type: string) => lines.filter((l) => l.type === type).length;
    // Titled as Claude's session list titles it: a rename, its folder's title, Claude's own title,
    // the last prompt, a summary.
    const last = (type: string, field: string) =>
      lines.findLast((l) => l.type === type && typeof l[field] === "string")?.[field] as string | undefined;
    const state = this.states.get(uuid) ?? {};
    const lastPrompt = last("last-prompt", "lastPrompt");
    const name =
      last("custom-title", "customTitle") ??
      state.title ??
      last("ai-title", "aiTitle") ??
      (lastPrompt === undefined ? last("summary", "summary") : undefined);
    const firstPrompt = firstTyped(lines);
    const shownPrompt = lastPrompt === undefined ? undefined : oneLine(lastPrompt);
    // Archived while no prompt was typed after it.
    const typed = lines
      .filter((l) => l.type === "user" && promptOf(l) !== undefined)
      .map((l) => Date.parse(l.timestamp as string));
    const archive = state.archived;
    const archivedAt =
      archive?.archived && !typed.some((t) => t > archive.at)
        ? new Date(archive.at).toISOString()
        : undefined;
    const tooLong = lines.some((l) => Buffer.byteLength(JSON.stringify(l)) > PARSE_CAP);
    return {
      uuid,
      id: `claude:${uuid}`,
      path,
      namespace: cwd ?? `(unknown: ${folder})`,
      createdAt: times.length > 0 ? new Date(times[0]!).toISOString() : fileTime,
      lastUsedAt: times.length > 0 ? new Date(times.at(-1)!).toISOString() : fileTime,
      modifiedAt,
      messageCount: lines.length,
      messageCounts: {
        user: count("user"),
        assistant: count("assistant"),
        toolResult: 0,
        other: lines.length - count("user") - count("assistant"),
      },
      ...(name !== undefined ? { name } : {}),
      ...(shownPrompt !== undefined && shownPrompt !== firstPrompt ? { lastPrompt: shownPrompt } : {}),
      ...(archivedAt !== undefined ? { archivedAt } : {}),
      warnings: [
        ...(cwd === undefined ? ["namespace-from-folder"] : []),
        ...(tooLong ? ["line-too-long"] : []),
      ].sort(),
      bundle,
      sizeBytes: this.weight(path) + bundle.reduce((total, part) => total + this.weight(part), 0),
      neededBy: [],
    };
  }

  private expectOrphan(uuid: string, parts: Array<{ kind: PartKind; path: string }>): ExpectedOrphan {
    const ordered = [...parts].sort(
      (a, b) => PART_ORDER.indexOf(a.kind) - PART_ORDER.indexOf(b.kind) || (a.path < b.path ? -1 : 1),
    );
    const [first, ...rest] = ordered.map((p) => p.path);
    return {
      uuid,
      id: `claude-orphan:${uuid}`,
      path: first!,
      folder: FOLDER_PARTS.has(ordered[0]!.kind),
      bundle: rest,
      sizeBytes: ordered.reduce((total, p) => total + this.weight(p.path), 0),
      modifiedAt: new Date(Math.max(...ordered.map((p) => newestTime(p.path)))).toISOString(),
    };
  }
}

/** A user line's prompt as the user typed it: its text, or the text blocks of its content (not a tool result). */
function promptOf(line: Line): string | undefined {
  if (line.isMeta === true || line.isCompactSummary === true || line.isSidechain === true) return undefined;
  const content = (line.message as { content?: unknown } | undefined)?.content;
  const text =
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? (content as Line[])
            .filter((block) => block.type === "text")
            .map((block) => block.text as string)
            .join(" ")
        : undefined;
  return text === undefined ? undefined : oneLine(text);
}

/** The first prompt typed in the transcript, one line. */
const firstTyped = (lines: readonly Line[]) =>
  lines.flatMap((l) => (l.type === "user" ? [promptOf(l)] : [])).find((p) => p !== undefined);

/** A terminal recording as Claude writes one: asciicast v2, a header line and output events. */
function asciicast(random: Random, atMs: number): string {
  const header = {
    version: 2,
    width: 120,
    height: 40,
    timestamp: Math.floor(atMs / 1000),
    env: { TERM: "xterm-256color" },
  };
  const events = Array.from(
    { length: 30 },
    (_, i) => [Number((i * 0.37).toFixed(3)), "o", `${sentence(random, 6)}\r\n`] as const,
  );
  return [header, ...events].map((line) => `${JSON.stringify(line)}\n`).join("");
}

/** A process's start time as Claude records it on Linux (field 22 of /proc/<pid>/stat); made up elsewhere. */
function procStart(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!;
  } catch {
    return "50424";
  }
}

// ---------------------------------------------------------------------------------------------
// The standard store
// ---------------------------------------------------------------------------------------------

/** A pid no process can have (above Linux's pid_max): a registry entry left behind by a crash. */
const DEAD_PID = 2_147_483_646;

export interface ClaudeStoreOptions {
  seed?: number;
  /** The pid of the live registry entry. Default: this process, so that it is alive. */
  livePid?: number;
}

/**
 * A Claude Code folder at `<home>/.claude` (and `<home>/.claude.json`) with three projects — two of
 * them cwds that collide in one folder name — sessions that open with a summary, a file-history
 * snapshot or a pull-request link, a huge pasted image, a session without any cwd, a full bundle
 * of every side folder, legacy subagent files, forks (a `/branch` copy, a fork pointer, a fork of a
 * session that is gone), four orphaned bundles, strays in `projects/`, and Claude's own files.
 */
export function writeClaudeStore(home: string, options: ClaudeStoreOptions = {}): ClaudeStore {
  const b = new ClaudeStoreBuilder(home, options.seed);
  const { root } = b;
  const at = (daysAgo: number) => CLAUDE_NOW - daysAgo * DAY;

  // /home/dev/shop: a session with every side folder, one opening with a snapshot and holding a
  // pasted screenshot too long to parse, and one opening with a pull-request link.
  const shop = "/home/dev/shop";
  const main = b.session(shop, 60).summary("Checkout refactor").conversation(4);
  main
    .toolCall("npm run build", "(output too large: saved to a file)", true)
    .system("Compacted conversation");
  const mainFolder = claudeFolderName(shop);
  b.save(main, { touchedAfterMs: 2 * DAY });
  const mainId = main.session.id;
  b.sessionFolder(mainId, mainFolder, shop, at(60), main.spilled);
  b.fileHistory(mainId, at(60));
  b.sessionEnv(mainId, at(60));
  b.tasks(mainId, at(60));
  b.debugLog(mainId, at(60));
  b.todos(mainId, mainId, at(60));
  b.todos(mainId, b.random.hex(16), at(59));

  const screenshot = b.session(shop, 45).snapshot(3).conversation(1);
  screenshot
    .pastedImage(300 * 1024, "why is this button misaligned?")
    .conversation(2)
    .customTitle("Button alignment");
  b.save(screenshot);
  b.fileHistory(screenshot.session.id, at(45));

  const pr = b.session(shop, 30).prLink(412).conversation(3);
  b.save(pr);
  b.sessionEnv(pr.session.id, at(30), { empty: true });

  // Two cwds, one folder: Claude's names are lossy, the namespace comes from inside.
  const spaced = b.session("/home/dev/b c", 90, { version: "1.0.98" }).conversation(2);
  b.save(spaced);
  b.legacyAgent(spaced.session.id, claudeFolderName("/home/dev/b c"), "/home/dev/b c", at(90));
  b.legacyAgent(spaced.session.id, claudeFolderName("/home/dev/b c"), "/home/dev/b c", at(89));
  b.todos(spaced.session.id, undefined, at(90));
  const dashed = b.session("/home/dev/b-c", 80).conversation(2);
  b.save(dashed);

  // /srv/api: forks, and a transcript that only ever got summaries.
  const api = "/srv/api";
  b.save(b.session(api, 20).branchedFrom(screenshot.session.id).conversation(2));
  b.save(b.session(api, 15).forkPointer(dashed.session.id).conversation(1));
  // A branch of a session that is gone: no link either way.
  b.save(b.session(api, 14).branchedFrom(uuidV4(b.random)).conversation(1));
  // Only summaries (a stub Claude left): no cwd and no time in it; the folder and the file's time
  // are all there is.
  b.save(b.session(api, 70).summary("Rate limiter design").summary("Rate limiter, second pass"));

  // /home/dev/app, as 2.1.332 writes it: a session with everything it keeps per session (its
  // folder's new files and a title there, its siblings, a background job), a continued session
  // titled by its last prompt and archived, one archived and prompted in again, a `--fork-session`
  // copy, one `/cd` moved here from the shop (and an earlier transcript of it that was in the way,
  // set aside), and the project's reserved names and files Claude is writing.
  const app = "/home/dev/app";
  const appFolder = claudeFolderName(app);
  const v332 = { version: "2.1.332" };
  const full = b.session(app, 12, v332).user("write the release notes").conversation(1);
  full.lastPrompt("write the release notes");
  b.save(full);
  const fullId = full.session.id;
  b.sessionFolder(fullId, appFolder, app, at(12));
  b.sessionState(fullId, appFolder, at(12), { title: "Release notes" });
  b.siblings(fullId, appFolder, at(12));
  b.fileHistory(fullId, at(12));
  b.sessionEnv(fullId, at(12));
  b.job(fullId, at(12));

  const continued = b.session(app, 8, v332).user("draft the changelog").assistant(sentence(b.random, 30));
  continued
    .lastPrompt("draft the changelog")
    .user("now shorten it to five lines")
    .assistant(sentence(b.random, 20));
  continued.lastPrompt("now shorten it to five lines");
  b.save(continued);
  const archivedAt = continued.lastMs + MINUTE;
  b.sessionState(continued.session.id, appFolder, archivedAt, {
    archived: { archived: true, at: archivedAt },
  });

  const revived = b.session(app, 6, v332).user("check the flaky test").assistant(sentence(b.random, 12));
  const shelvedAt = revived.lastMs + SECOND; // the next prompt comes later
  revived.lastPrompt("check the flaky test").user("it failed again").assistant(sentence(b.random, 12));
  revived.lastPrompt("it failed again");
  b.save(revived);
  b.sessionState(revived.session.id, appFolder, shelvedAt, { archived: { archived: true, at: shelvedAt } });

  const copy = b
    .session(app, 4, v332)
    .copiedFrom(continued)
    .user("make it a table")
    .assistant(sentence(b.random, 9));
  b.save(copy.lastPrompt("make it a table"));

  const moved = b.session(shop, 5, v332).user("look at the cart").assistant(sentence(b.random, 10));
  moved.relocated(app).user("now the api").assistant(sentence(b.random, 10)).lastPrompt("now the api");
  b.save(moved);
  const earlier = b
    .session(app, 9, { ...v332, id: moved.session.id })
    .user("an earlier start")
    .conversation(1);
  b.setAside(earlier, appFolder, at(5));

  for (const name of [".dir-sync.json", ".dir-sync-empty.json", ".cloud-worktrees.json"])
    b.keep(join(root, "projects", appFolder, name), JSON.stringify({ version: 1, entries: [] }));
  b.keep(
    join(root, "projects", appFolder, "connector-downloads", fullId, "download-0a1b2c3d.pdf"),
    "%PDF-1.7\n",
  );
  // Files Claude is writing under a temporary name, to rename over the real ones.
  b.keep(join(root, "projects", appFolder, `${fullId}.jsonl.compact.tmp.${b.random.hex(8)}`), full.text());
  b.keep(join(root, "projects", appFolder, `${fullId}.ccr-tip.json.tmp.4242.${b.random.hex(6)}`), "{}");
  // Claude's own in jobs/: its pins, and a job of no session (starting, or a spare).
  b.keep(join(root, "jobs", "pins.json"), JSON.stringify({ pinned: [] }));
  b.keep(join(root, "jobs", "0badc0de", "state.json"), JSON.stringify({ state: "idle" }));

  // Orphaned side files: their transcript is gone (Claude's own sweep removes only the .jsonl).
  const withFolder = uuidV4(b.random);
  b.sessionFolder(withFolder, claudeFolderName(api), api, at(120));
  b.fileHistory(withFolder, at(120));
  b.sessionEnv(withFolder, at(120));
  b.todos(withFolder, withFolder, at(120));
  const historyOnly = uuidV4(b.random);
  b.fileHistory(historyOnly, at(150));
  b.debugLog(historyOnly, at(150));
  const debugOnly = uuidV4(b.random);
  b.debugLog(debugOnly, at(160));
  b.todos(debugOnly, debugOnly, at(160));
  b.sessionEnv(uuidV4(b.random), at(170), { empty: true });

  // In projects/ but not a session: reported, never moved.
  b.stray(join(root, "projects", "README.txt"), "notes about these folders\n");
  b.stray(join(root, "projects", mainFolder, "notes.md"), "# scratch notes\n");
  b.stray(join(root, "projects", mainFolder, "scratch"), undefined);
  b.stray(
    join(root, "projects", claudeFolderName(api), "backup.jsonl"),
    `${JSON.stringify({ type: "user" })}\n`,
  );
  b.link(join(root, "projects", mainFolder, "latest.jsonl"), `${mainId}.jsonl`, true);

  // Claude's own: per project, and for the whole machine.
  for (const folder of [mainFolder, claudeFolderName("/home/dev/b c")]) {
    b.keep(join(root, "projects", folder, "memory", "MEMORY.md"), "- the shop uses pnpm\n");
    b.keep(join(root, "projects", folder, ".session-aliases"), `${FAKE_CLAUDE}/projects/${folder}\n`);
  }
  const history = [main, screenshot, pr].map((t) =>
    JSON.stringify({
      display: "fix the checkout",
      pastedContents: {},
      timestamp: at(30),
      project: t.session.cwd,
      sessionId: t.session.id,
    }),
  );
  b.keep(join(root, "history.jsonl"), `${history.join("\n")}\n`);
  b.keep(join(root, "settings.json"), JSON.stringify({ cleanupPeriodDays: 45, model: "sonnet" }, null, 2));
  b.keep(
    join(home, ".claude.json"),
    JSON.stringify({
      numStartups: 42,
      projects: { [shop]: { lastSessionId: pr.session.id, allowedTools: [] } },
    }),
  );
  b.keep(join(root, "backups", `.claude.json.backup.${at(3)}`), JSON.stringify({ numStartups: 41 }));
  b.keep(join(root, "plans", "checkout-refactor.md"), "# Plan\n1. split the handler\n");
  b.keep(join(root, "paste-cache", `${b.random.hex(16)}.txt`), sentence(b.random, 50));
  b.imageCache(screenshot.session.id, at(3));
  b.keep(
    join(root, "shell-snapshots", `snapshot-zsh-${at(30)}-${b.random.chars(BASE62, 6)}.sh`),
    "export PATH=/usr/bin\n",
  );
  b.keep(join(root, "plugins", "installed_plugins.json"), JSON.stringify({ version: 2, plugins: {} }));
  b.keep(join(root, "tasks", "team-alpha", "1.json"), JSON.stringify({ id: "1", subject: "shared list" }));
  b.keep(join(root, ".last-cleanup"), new Date(at(1)).toISOString());
  b.link(join(root, "debug", "latest"), `${mainId}.txt`);
  const registry = {
    live: b.registry(options.livePid ?? process.pid, pr.session.id, at(0.5)),
    dead: b.registry(DEAD_PID, dashed.session.id, at(10)),
  };
  return { ...b.finish(), registry };
}
