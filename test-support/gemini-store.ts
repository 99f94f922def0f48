// Realistic Gemini CLI stores for tests, written from the formats in Gemini CLI's own code
// (google-gemini/gemini-cli: packages/core/src/services/chatRecordingService.ts and
// chatRecordingTypes.ts for chats, config/storage.ts and config/projectRegistry.ts for the project
// folders, utils/sessionOperations.ts for what belongs to a session) — never copied from a real
// machine — together with what a scan must find in them. The expectations are worked out from
// what was written (the conversation as it was built, the bytes, the times), never by asking the
// adapter, so a test compares two independent accounts.
//
// One seed and one clock give the same bytes in any folder: the projects are made-up paths under
// `/home/dev`, not the folder the store is written to.
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { BASE64_ALPHABET, Random } from "../server/demo/seeded-random.js";
import { FixtureFiles, newestTime } from "./fixture-files.js";
import { oneLine } from "../shared/session-title.js";

/** The fixed clock: every time in a generated store is before it (and before any real test run). */
export const GEMINI_NOW = Date.parse("2026-03-02T09:00:00.000Z");
const SECOND = 1000;
const MINUTE = 60 * SECOND;
export const DAY = 86_400_000;
/** Lines longer than this are too long for the adapter to parse (a `line-too-long` warning). */
export const PARSE_CAP = 4 * 1024 * 1024;
const MODEL = "gemini-2.5-pro";

const uuid = (r: Random) =>
  `${r.hex(8)}-${r.hex(4)}-4${r.hex(3)}-${r.pick(["8", "9", "a", "b"])}${r.hex(3)}-${r.hex(12)}`;

const WORDS = (
  "checkout cart refactor flaky test migration index schema retry timeout parser cache invoice " +
  "webhook queue worker deploy config lint types route handler fixture snapshot bundle release"
).split(" ");
const sentence = (r: Random, words: number) => Array.from({ length: words }, () => r.pick(WORDS)).join(" ");

/** Gemini's slug of a project's name: lower case, every run of other characters one `-` (projectRegistry.ts). */
export const geminiSlug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "") || "project";

/** The sha256 of a project's path: its folder before slugs, and every chat's `projectHash`. */
export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export type Line = Record<string, unknown>;

interface Said {
  id: string;
  type: "user" | "gemini" | "info" | "error" | "warning";
  /** Whether Gemini counts it as conversation (its `isResumableMessageRecord`). */
  resumable: boolean;
  record: Line;
}

// ---------------------------------------------------------------------------------------------
// A chat, record by record, as ChatRecordingService appends it
// ---------------------------------------------------------------------------------------------

export class Chat {
  readonly lines: Line[] = [];
  /** The conversation as Gemini would rebuild it now (rewinds and checkpoints applied). */
  conversation: Said[] = [];
  lastUpdatedMs: number;
  summary?: string;
  /** Whether the file starts with the metadata line (a chat Gemini re-created after a move does not). */
  header = true;
  private clock: number;

  constructor(
    private readonly random: Random,
    readonly sessionId: string,
    readonly projectHash: string,
    readonly startMs: number,
    readonly kind: "main" | "subagent" = "main",
    directories?: string[],
  ) {
    this.clock = startMs;
    this.lastUpdatedMs = startMs;
    const at = new Date(startMs).toISOString();
    this.lines.push({
      sessionId,
      projectHash,
      startTime: at,
      lastUpdated: at,
      kind,
      ...(directories ? { directories } : {}),
    });
  }

  private tick() {
    this.clock += this.random.int(2, 90) * SECOND;
    return new Date(this.clock).toISOString();
  }

  /** `recordMessage`: the message, then `$set.lastUpdated`. */
  private record(type: Said["type"], content: unknown, resumable: boolean, extra: Line = {}) {
    const id = uuid(this.random);
    const record = { id, timestamp: this.tick(), type, content, ...extra };
    this.lines.push(record);
    this.conversation.push({ id, type, resumable, record });
    this.setLastUpdated();
    return id;
  }

  private setLastUpdated() {
    this.lastUpdatedMs = this.clock + 200;
    this.lines.push({ $set: { lastUpdated: new Date(this.lastUpdatedMs).toISOString() } });
  }

  user(text: string) {
    const trimmed = text.trim();
    const ignored = trimmed === "" || /^[/?]/.test(trimmed) || trimmed.startsWith("<session_context>");
    this.record("user", [{ text }], !ignored);
    return this;
  }

  /** A message Gemini shows but never counts as conversation: a command's output, a warning. */
  notice(type: "info" | "error" | "warning", text: string) {
    this.record(type, text, false);
    return this;
  }

  /**
   * A turn with a tool call, as the scheduler records it: the answer with its call (appended), the
   * same message again once the call has its result, again with its tokens, then the final answer.
   */
  toolTurn(prompt: string, command: string, output: string) {
    this.user(prompt);
    const id = uuid(this.random);
    const thoughts = [
      { subject: "Running the tests", description: sentence(this.random, 8), timestamp: this.tick() },
    ];
    const call = {
      id: `run_shell_command-${this.clock}-${this.random.hex(12)}`,
      name: "run_shell_command",
      args: { command, description: `Run ${command}` },
      status: "executing",
      timestamp: this.tick(),
      displayName: "Shell",
      description: "Executes a shell command",
      renderOutputAsMarkdown: false,
    };
    const message: Line = {
      id,
      timestamp: this.tick(),
      type: "gemini",
      content: "",
      toolCalls: [call],
      thoughts,
      model: MODEL,
    };
    this.lines.push({ ...message });
    const done = {
      ...call,
      status: "success",
      result: [{ functionResponse: { id: call.id, name: call.name, response: { output } } }],
      resultDisplay: output,
    };
    message.toolCalls = [done];
    this.lines.push({ ...message });
    message.tokens = { input: 812, output: 64, cached: 0, thoughts: 120, tool: 0, total: 996 };
    this.lines.push({ ...message });
    this.conversation.push({ id, type: "gemini", resumable: true, record: message });
    return this.answer(sentence(this.random, 20));
  }

  answer(text: string) {
    const tokens = { input: 900, output: 120, cached: 512, thoughts: 0, tool: 0, total: 1020 };
    this.record("gemini", text, text.trim() !== "", { thoughts: [], tokens, model: MODEL });
    return this;
  }

  /** `turns` prompts and answers. */
  conversationOf(turns: number) {
    for (let t = 0; t < turns; t++) {
      this.user(`${sentence(this.random, 6)}?`);
      this.answer(sentence(this.random, this.random.int(10, 60)));
    }
    return this;
  }

  /** A prompt with a pasted screenshot: one line of about `bytes` of base64. */
  pastedImage(bytes: number, text: string) {
    const data = this.random.chars(BASE64_ALPHABET, bytes);
    this.record("user", [{ text }, { inlineData: { mimeType: "image/png", data } }], true);
    return this;
  }

  /** `/rewind` to the message `back` messages ago: it and everything after it go (`$rewindTo`). */
  rewind(back: number) {
    const target = this.conversation[this.conversation.length - back]!;
    this.lines.push({ $rewindTo: target.id });
    this.conversation = this.conversation.slice(0, this.conversation.length - back);
    return this;
  }

  /** `saveSummary`: a `$set`, no new time. */
  summarize(text: string) {
    this.summary = text;
    this.lines.push({ $set: { summary: text } });
    return this;
  }

  /**
   * `gemini --resume` some time later: the id set again, then the whole conversation as Gemini
   * rebuilt it (a checkpoint `$set.messages`, with a new time).
   */
  resume(afterMs: number) {
    this.clock += afterMs;
    this.lines.push({ $set: { sessionId: this.sessionId } });
    this.lastUpdatedMs = this.clock;
    this.lines.push({
      $set: {
        messages: this.conversation.map((m) => m.record),
        lastUpdated: new Date(this.lastUpdatedMs).toISOString(),
      },
    });
    return this;
  }

  get lastMs() {
    return this.clock;
  }

  get firstPrompt() {
    const first = this.conversation.find((m) => m.type === "user" && m.resumable);
    const content = first?.record.content as Array<{ text: string }> | undefined;
    return content?.[0] && oneLine(content[0].text);
  }

  /** The file as Gemini appends it: one JSON object per line, each line ended. */
  jsonl() {
    return this.lines.map((line) => `${JSON.stringify(line)}\n`).join("");
  }

  /** The legacy file: the whole record, pretty-printed, rewritten at every change. */
  json() {
    const [meta] = this.lines as [Line];
    return JSON.stringify(
      {
        sessionId: meta.sessionId,
        projectHash: meta.projectHash,
        startTime: meta.startTime,
        lastUpdated: new Date(this.lastUpdatedMs).toISOString(),
        messages: this.conversation.map((m) => m.record),
        ...(this.summary ? { summary: this.summary } : {}),
      },
      null,
      2,
    );
  }

  /** What Gemini writes when it resumes a legacy `.json`: the `.jsonl` beside it (then it appends). */
  converted() {
    const [meta] = this.lines as [Line];
    const lines: Line[] = [
      {
        sessionId: this.sessionId,
        projectHash: this.projectHash,
        startTime: meta.startTime,
        lastUpdated: new Date(this.lastUpdatedMs).toISOString(),
        kind: this.kind,
        ...(this.summary ? { summary: this.summary } : {}),
      },
      ...this.conversation.map((m) => m.record),
      { $set: { sessionId: this.sessionId } },
    ];
    return lines.map((line) => `${JSON.stringify(line)}\n`).join("");
  }
}

// ---------------------------------------------------------------------------------------------
// What a scan must find
// ---------------------------------------------------------------------------------------------

/** A duplicate's id: the scan gives the second file with an id one derived from its path. */
export const PATH_DERIVED = "(path-derived)";

export interface ExpectedSession {
  sessionId?: string;
  /** `PATH_DERIVED` for a second copy of a session (a migrated project's old folder). */
  id: string;
  path: string;
  namespace: string;
  createdAt: string;
  modifiedAt: string;
  lastUsedAt: string;
  messageCount: number;
  messageCounts: { user: number; assistant: number; toolResult: 0; other: number };
  name?: string;
  firstMessage?: string;
  /** Warning codes, sorted. */
  warnings: string[];
  /** Absolute paths of the other parts, sorted. */
  bundle: string[];
  sizeBytes: number;
  /** Its resume twins: parts of its bundle, each removable on its own. */
  twins?: string[];
}

export interface ExpectedOrphan {
  id: string;
  path: string;
  folder: boolean;
  bundle: string[];
  sizeBytes: number;
  modifiedAt: string;
}

export interface ExpectedProblem {
  code: "not-a-session" | "symlink";
  path: string;
  bytes?: number;
}

/** What Gemini's own cleanup needs to know of a chat, kept by the builder as it writes. */
export interface SweepFacts {
  /** The chat (the record's path). */
  path: string;
  /** The project folder, and whether Gemini started in its project would use it. */
  folder: string;
  current: boolean;
  /** Gemini can load it, it holds conversation, and it is the main agent's. */
  valid: boolean;
  lastUpdatedMs: number;
}

export interface GeminiStoreFacts {
  /** The folder standing for home (`GEMINI_CLI_HOME`): `.gemini/` is in it. */
  home: string;
  /** The store root, `<home>/.gemini`. */
  root: string;
  sessions: ExpectedSession[];
  orphans: ExpectedOrphan[];
  problems: ExpectedProblem[];
  /** Gemini's own files and folders: never part of a session, never reported, never moved. */
  neverMoved: string[];
  sweep: SweepFacts[];
}

export interface Project {
  path: string;
  /** The folder's name in `tmp/`. */
  folder: string;
  dir: string;
  /** Whether Gemini started in `path` would use this folder (a hash folder it never uses again). */
  current: boolean;
}

interface Unit {
  chat: Chat;
  project: Project;
  path: string;
  mtimeMs: number;
  /** A converted legacy chat's `.json`, beside the `.jsonl`. */
  companion?: string;
  /** Written as the legacy `.json` (the whole record). */
  legacy: boolean;
  /** The parts of its bundle (companion excluded). */
  parts: string[];
  /** Expected by hand where the file is deliberately damaged. */
  override?: Partial<ExpectedSession> & { valid?: boolean };
  duplicate?: boolean;
  /** Its resume twins (in `parts` too). */
  twins?: string[];
}

// ---------------------------------------------------------------------------------------------
// The builder: writes files, remembers their bytes and times
// ---------------------------------------------------------------------------------------------

export class GeminiStoreBuilder extends FixtureFiles {
  readonly root: string;
  readonly random: Random;
  private readonly registry = new Map<string, string>();
  private readonly units: Unit[] = [];
  private readonly orphanParts = new Map<string, string[]>();
  private readonly kept: string[] = [];
  private readonly problems: ExpectedProblem[] = [];

  constructor(
    readonly home: string,
    readonly now = GEMINI_NOW,
    seed = 20_260_302,
  ) {
    super();
    this.root = join(home, ".gemini");
    this.random = new Random(seed);
    mkdirSync(join(this.root, "tmp"), { recursive: true });
  }

  /**
   * A project Gemini was started in. `slug`: Gemini's way since 2026 — the slug of its name, `-1`,
   * `-2`… when taken, an ownership marker, and an entry in projects.json (unless `registered` is
   * false: a registry that lost it). `hash`: an older install's folder, the sha256 of the path.
   * `unknown`: a slug folder nothing names.
   */
  project(path: string, style: "slug" | "hash" | "unknown" = "slug", options: { registered?: boolean } = {}) {
    let folder: string;
    if (style === "hash") folder = sha256(path);
    else {
      const slug = geminiSlug(basename(path));
      const taken = new Set([...this.registry.values(), ...readdirSync(join(this.root, "tmp"))]);
      folder = slug;
      for (let n = 1; taken.has(folder); n++) folder = `${slug}-${n}`;
    }
    const dir = join(this.root, "tmp", folder);
    mkdirSync(dir, { recursive: true });
    if (style === "slug") {
      this.keep(join(dir, ".project_root"), path);
      if (options.registered !== false) this.registry.set(path, folder);
    }
    return { path, folder, dir, current: style === "slug" } satisfies Project;
  }

  /** A new chat of the main agent in `project`, started `daysAgo` before the clock. */
  chat(project: Project, daysAgo: number) {
    return new Chat(this.random.child(), uuid(this.random), sha256(project.path), this.now - daysAgo * DAY);
  }

  /** Gemini's chat name: `session-<start, to the minute>-<the id's first 8 characters>`. */
  chatName(chat: Chat, extension: "jsonl" | "json") {
    const minute = new Date(chat.startMs).toISOString().slice(0, 16).replace(/:/g, "-");
    return `session-${minute}-${chat.sessionId.slice(0, 8)}.${extension}`;
  }

  /**
   * Writes the chat into its project's `chats/`; its time is a few seconds after its last record.
   * `legacy`: the whole-record `.json`; `converted`: the `.json` and the `.jsonl` Gemini made of it.
   */
  save(chat: Chat, project: Project, format: "jsonl" | "legacy" | "converted" = "jsonl") {
    const chats = join(project.dir, "chats");
    const mtimeMs = chat.lastMs + 3 * SECOND;
    let unit: Unit;
    if (format === "legacy") {
      const path = this.file(join(chats, this.chatName(chat, "json")), chat.json(), mtimeMs);
      unit = { chat, project, path, mtimeMs, legacy: true, parts: [] };
    } else if (format === "converted") {
      const companion = this.file(join(chats, this.chatName(chat, "json")), chat.json(), mtimeMs - DAY);
      const path = this.file(join(chats, this.chatName(chat, "jsonl")), chat.converted(), mtimeMs);
      unit = { chat, project, path, mtimeMs, legacy: false, companion, parts: [] };
    } else {
      const path = this.file(join(chats, this.chatName(chat, "jsonl")), chat.jsonl(), mtimeMs);
      unit = { chat, project, path, mtimeMs, legacy: false, parts: [] };
    }
    this.units.push(unit);
    return unit;
  }

  /** Writes raw lines as a chat file of `project`, with what the scan must find in it given by hand. */
  saveRaw(
    chat: Chat,
    project: Project,
    content: string,
    override: Unit["override"],
    mtimeMs = chat.lastMs + 3 * SECOND,
  ) {
    const path = this.file(join(project.dir, "chats", this.chatName(chat, "jsonl")), content, mtimeMs);
    const unit: Unit = { chat, project, path, mtimeMs, legacy: false, parts: [], override };
    this.units.push(unit);
    return unit;
  }

  /**
   * What `gemini --resume` of `unit`'s chat (begun in an earlier minute) leaves beside it, as
   * Gemini CLI 0.61.0 writes it (google-gemini/gemini-cli#27368): a second file named for the minute
   * of the resume and the same 8 characters, holding the session's metadata line and the context
   * message — nothing Gemini would resume. A part of the chat's session; Gemini's next start deletes
   * it, and every chat named with those 8 characters with it.
   */
  resumeTwin(unit: Unit, atMs: number) {
    const at = new Date(atMs).toISOString();
    const context = [
      "<session_context>",
      "This is the Gemini CLI. We are setting up the context for our chat.",
      `Today's date is ${new Date(atMs).toDateString()} (formatted according to the user's locale).`,
      "My operating system is: linux",
      `The project's temporary directory is: ${unit.project.dir}`,
      "</session_context>",
    ].join("\n");
    const lines: Line[] = [
      {
        sessionId: unit.chat.sessionId,
        projectHash: unit.chat.projectHash,
        startTime: at,
        lastUpdated: at,
        kind: "main",
      },
      { id: uuid(this.random), timestamp: at, type: "user", content: [{ text: context }] },
    ];
    const minute = at.slice(0, 16).replace(/:/g, "-");
    const name = `session-${minute}-${unit.chat.sessionId.slice(0, 8)}.jsonl`;
    const content = lines.map((line) => `${JSON.stringify(line)}\n`).join("");
    const path = this.file(join(dirname(unit.path), name), content, atMs + SECOND);
    unit.parts.push(path);
    unit.twins = [...(unit.twins ?? []), path];
    return path;
  }

  /** A copy of a unit's chat in another project folder (Gemini's migration copies, and keeps the old). */
  copy(unit: Unit, to: Project) {
    const path = join(to.dir, "chats", basename(unit.path));
    this.file(path, readFileSync(unit.path), unit.mtimeMs);
    const copied: Unit = { ...unit, project: to, path, parts: [], duplicate: true };
    this.units.push(copied);
    return copied;
  }

  private part(unit: Unit | string, path: string) {
    if (typeof unit === "string") this.orphanParts.set(unit, [...(this.orphanParts.get(unit) ?? []), path]);
    else unit.parts.push(path);
    return path;
  }

  /** `chats/<id>/<subagent id>.jsonl`: a subagent's chat, with its own log, tool outputs and folder. */
  subagent(owner: Unit | string, project: Project, parentId: string, atMs: number) {
    const sub = new Chat(this.random.child(), uuid(this.random), sha256(project.path), atMs, "subagent", [
      project.path,
    ]);
    sub.user("Find the checkout handlers").answer(sentence(this.random, 30)).summarize("Found 3 handlers");
    const folder = join(project.dir, "chats", parentId);
    this.file(join(folder, `${sub.sessionId}.jsonl`), sub.jsonl(), sub.lastMs + SECOND);
    this.part(owner, folder);
    this.activityLog(owner, project, sub.sessionId, atMs);
    this.toolOutputs(owner, project, sub.sessionId, atMs);
    return sub;
  }

  /** `logs/session-<id>.jsonl`: the activity log Gemini keeps with `--debug`-style logging on. */
  activityLog(owner: Unit | string, project: Project, id: string, atMs: number) {
    const lines = [0, 1, 2].map((i) =>
      JSON.stringify({
        type: "console",
        timestamp: new Date(atMs + i * SECOND).toISOString(),
        payload: { content: sentence(this.random, 6) },
      }),
    );
    return this.part(
      owner,
      this.file(join(project.dir, "logs", `session-${id}.jsonl`), `${lines.join("\n")}\n`, atMs + 3 * SECOND),
    );
  }

  /** `tool-outputs/session-<id>/`: tool output too long for the chat, saved whole. */
  toolOutputs(owner: Unit | string, project: Project, id: string, atMs: number) {
    const folder = join(project.dir, "tool-outputs", `session-${id}`);
    this.file(join(folder, `run_shell_command_${this.random.hex(8)}.txt`), sentence(this.random, 900), atMs);
    this.file(
      join(folder, `read_file_${this.random.hex(8)}_${this.random.hex(6)}.txt`),
      sentence(this.random, 300),
      atMs + MINUTE,
    );
    return this.part(owner, folder);
  }

  /** `<id>/`: the session's plans, tracker and tasks. */
  sessionFolder(owner: Unit | string, project: Project, id: string, atMs: number) {
    const folder = join(project.dir, id);
    this.file(join(folder, "plans", "checkout-refactor.md"), "# Plan\n1. split the handler\n", atMs);
    this.file(
      join(folder, "tracker", "tasks.json"),
      JSON.stringify({ tasks: [{ id: 1, status: "done" }] }),
      atMs + MINUTE,
    );
    return this.part(owner, folder);
  }

  /** What Gemini set aside when it could not read the chat and rewrote it from memory. */
  unreadableBackup(owner: Unit | string, chatPath: string, atMs: number) {
    return this.part(owner, this.file(`${chatPath}.unreadable-${atMs}`, '{"sessionId":"', atMs));
  }

  /** A file or folder of Gemini's own, not of any session. */
  keep(path: string, content?: string | Buffer, atMs = this.now - 3 * DAY) {
    if (content === undefined) this.folder(path, atMs);
    else this.file(path, content, atMs);
    this.kept.push(path);
    return path;
  }

  /** Something in `chats/` that is not a chat: reported by the scan, never moved. */
  stray(path: string, content: string) {
    this.keep(path, content, this.now - 20 * DAY);
    this.problems.push({ code: "not-a-session", path, bytes: Buffer.byteLength(content) });
    return path;
  }

  /** A symlink, never followed; reported. */
  link(path: string, target: string) {
    mkdirSync(dirname(path), { recursive: true });
    symlinkSync(target, path);
    this.kept.push(path);
    this.problems.push({ code: "symlink", path });
    return path;
  }

  /** Writes projects.json, settles every folder's time, and works out what a scan must find. */
  finish(): GeminiStoreFacts {
    if (this.registry.size > 0)
      this.keep(
        join(this.root, "projects.json"),
        JSON.stringify({ projects: Object.fromEntries(this.registry) }, null, 2),
      );
    this.settleFolderTimes(this.home, this.now - 400 * DAY);
    const sessions = this.units.map((unit) => this.expectSession(unit));
    const orphans = [...this.orphanParts].map(([key, parts]) => this.expectOrphan(key, parts));
    return {
      home: this.home,
      root: this.root,
      sessions,
      orphans,
      problems: this.problems,
      neverMoved: this.kept,
      sweep: this.units.map((unit) => ({
        path: unit.path,
        folder: unit.project.folder,
        current: unit.project.current,
        valid:
          unit.override?.valid ??
          (unit.chat.header && unit.chat.kind === "main" && unit.chat.conversation.some((m) => m.resumable)),
        lastUpdatedMs: unit.chat.lastUpdatedMs,
      })),
    };
  }

  private expectSession(unit: Unit): ExpectedSession {
    const { chat, path, project } = unit;
    const count = (type: string) => chat.conversation.filter((m) => m.type === type).length;
    const parts = [...(unit.companion ? [unit.companion] : []), ...unit.parts].sort();
    const modifiedAt = new Date(Math.max(unit.mtimeMs, ...parts.map(newestTime))).toISOString();
    const known = this.knownPath(project);
    const name = chat.summary ?? chat.firstPrompt;
    const firstMessage = chat.firstPrompt;
    const expected: ExpectedSession = {
      sessionId: chat.sessionId,
      id: unit.duplicate ? PATH_DERIVED : `gemini:${chat.sessionId}`,
      path,
      namespace: known ?? `(unknown: ${project.folder})`,
      createdAt: new Date(chat.startMs).toISOString(),
      modifiedAt,
      lastUsedAt: new Date(chat.lastUpdatedMs).toISOString(),
      messageCount: chat.conversation.length,
      messageCounts: {
        user: count("user"),
        assistant: count("gemini"),
        toolResult: 0,
        other: chat.conversation.length - count("user") - count("gemini"),
      },
      ...(name !== undefined ? { name } : {}),
      ...(firstMessage !== undefined ? { firstMessage } : {}),
      warnings: [
        ...(known === undefined ? ["namespace-from-folder"] : []),
        ...(unit.duplicate ? ["duplicate-id"] : []),
        ...(unit.twins ?? []).map(() => "resume-twin"),
      ],
      ...(unit.twins ? { twins: unit.twins } : {}),
      bundle: parts,
      sizeBytes: this.weight(path) + parts.reduce((total, part) => total + this.weight(part), 0),
    };
    const { valid: _valid, ...override } = unit.override ?? {};
    const result = { ...expected, ...override };
    result.warnings = [...result.warnings].sort();
    return result;
  }

  /** A project's path, where a marker, the registry or a known path's hash names its folder. */
  private knownPath(project: Project) {
    if (project.current) return project.path;
    if ([...this.registry.keys()].some((p) => sha256(p) === project.folder)) return project.path;
    return undefined;
  }

  private expectOrphan(key: string, parts: string[]): ExpectedOrphan {
    // Gemini's order: the subagents' folder, the tool outputs, the session's folder, the log.
    const rank = (path: string) =>
      path.includes("/chats/") ? 0 : path.includes("/tool-outputs/") ? 1 : path.includes("/logs/") ? 3 : 2;
    const ordered = [...parts].sort((a, b) => rank(a) - rank(b));
    const [first, ...rest] = ordered;
    return {
      id: `gemini-orphan:${key}`,
      path: first!,
      folder: lstatSync(first!).isDirectory(),
      bundle: rest,
      sizeBytes: ordered.reduce((total, p) => total + this.weight(p), 0),
      modifiedAt: new Date(Math.max(...ordered.map(newestTime))).toISOString(),
    };
  }
}

// ---------------------------------------------------------------------------------------------
// The standard store
// ---------------------------------------------------------------------------------------------

export interface GeminiStore extends GeminiStoreFacts {
  /** The projects by role, for tests that look at one. */
  projects: Record<
    "shop" | "otherShop" | "myApp" | "oldApiSlug" | "oldApiHash" | "unknownHash" | "scratch",
    Project
  >;
  /** The session with every part of a bundle. */
  full: ExpectedSession;
}

/**
 * A Gemini CLI folder at `<home>/.gemini` with six projects: two whose names collide (`shop`,
 * `shop-1`), one known by its marker only (the registry lost it), one migrated from a hash folder
 * (the old copy still there), a hash folder nobody knows and a slug folder nothing names. Chats
 * with tool calls appended again as they change, a rewind, a resume's checkpoint, a summary, a
 * chat with commands only, legacy and converted chats, a chat Gemini re-created without its
 * metadata, a damaged one, one with a prompt too long to parse; a bundle with every part and a
 * subagent; orphaned side files; strays in `chats/`; and Gemini's own files.
 */
export function writeGeminiStore(home: string, options: { now?: number; seed?: number } = {}): GeminiStore {
  const b = new GeminiStoreBuilder(home, options.now, options.seed);
  const { root } = b;
  const at = (daysAgo: number) => b.now - daysAgo * DAY;

  const shop = b.project("/home/dev/work/shop");
  const otherShop = b.project("/home/dev/personal/Shop");
  const myApp = b.project("/home/dev/My App!", "slug", { registered: false });
  const oldApiHash = b.project("/home/dev/old-api", "hash");
  const oldApiSlug = b.project("/home/dev/old-api");
  const unknownHash = b.project("/home/dev/gone", "hash");
  const scratch = b.project("/home/dev/scratch", "unknown");

  // shop: the full bundle (a subagent, its log, tool outputs, the session's folder, a backup), a
  // resumed chat, a recent one, one with commands only.
  const main = b.chat(shop, 60);
  main.conversationOf(2).toolTurn("why does the checkout test fail?", "npm test", sentence(b.random, 40));
  main.answer("Let me try another way.").rewind(1).conversationOf(1).summarize("Checkout test fix");
  const full = b.save(main, shop);
  b.subagent(full, shop, main.sessionId, at(60) + 10 * MINUTE);
  b.activityLog(full, shop, main.sessionId, at(60));
  b.toolOutputs(full, shop, main.sessionId, at(60));
  b.sessionFolder(full, shop, main.sessionId, at(60));
  b.unreadableBackup(full, full.path, at(59));

  const resumed = b.chat(shop, 45).conversationOf(2);
  resumed.resume(25 * DAY).conversationOf(1);
  b.save(resumed, shop);
  b.save(b.chat(shop, 2).conversationOf(3), shop);
  const commands = b.chat(shop, 50);
  commands.user("/help").notice("info", "Commands: /help /chat /memory");
  b.save(commands, shop);

  // shop-1: a converted legacy chat and a legacy one.
  const converted = b.chat(otherShop, 40).conversationOf(2).summarize("Cart totals");
  b.save(converted, otherShop, "converted");
  b.save(b.chat(otherShop, 90).conversationOf(1), otherShop, "legacy");

  // my-app: a chat Gemini re-created without metadata, a damaged one, a pasted screenshot.
  const recreated = b.chat(myApp, 12).conversationOf(1);
  recreated.header = false;
  // Without its metadata line the chat names no session: its id comes from its path, its start
  // from its first message.
  b.saveRaw(
    recreated,
    myApp,
    recreated.lines
      .slice(1)
      .map((l) => `${JSON.stringify(l)}\n`)
      .join(""),
    {
      id: PATH_DERIVED,
      createdAt: recreated.conversation[0]!.record.timestamp as string,
      warnings: ["missing-header"],
      valid: false,
    },
  );
  const damaged = b.chat(myApp, 35).conversationOf(2);
  b.saveRaw(damaged, myApp, `${damaged.jsonl()}not json at all\n{"id":"x","timest`, {
    warnings: ["corrupt-line"],
  });
  const screenshot = b.chat(myApp, 8).pastedImage(PARSE_CAP + 1024, "why is this button misaligned?");
  screenshot.answer(sentence(b.random, 20));
  // Its prompt is in the line too long to parse: no first message to show (its time names it).
  b.saveRaw(screenshot, myApp, screenshot.jsonl(), {
    name: undefined,
    firstMessage: undefined,
    warnings: ["line-too-long"],
  });

  // old-api: migrated (the hash folder's copy stays behind, a second file with the same id).
  const old = b.save(b.chat(oldApiHash, 70).conversationOf(2), oldApiHash, "legacy");
  b.copy(old, oldApiSlug);
  b.save(b.chat(unknownHash, 200).conversationOf(1), unknownHash, "legacy");
  b.save(b.chat(scratch, 5).conversationOf(1), scratch);

  // Side files whose chat is gone: a whole bundle, a subagents' folder alone, a backup alone.
  const gone = uuid(b.random);
  b.toolOutputs(gone, shop, gone, at(120));
  b.sessionFolder(gone, shop, gone, at(120));
  b.activityLog(gone, shop, gone, at(120));
  const parentGone = uuid(b.random);
  b.subagent(parentGone, shop, parentGone, at(100));
  b.unreadableBackup(
    "session-2025-11-02T10-00-0badc0de.jsonl",
    join(shop.dir, "chats", "session-2025-11-02T10-00-0badc0de.jsonl"),
    at(110),
  );

  // In chats/ but not a chat: reported, never moved.
  b.stray(join(shop.dir, "chats", "notes.txt"), "which chat had the fix?\n");
  b.link(join(shop.dir, "chats", "latest.jsonl"), basename(full.path));

  // Gemini's own, per project and for the whole machine.
  b.keep(
    join(shop.dir, "logs.json"),
    JSON.stringify([
      {
        sessionId: main.sessionId,
        messageId: 0,
        type: "user",
        message: "hi",
        timestamp: new Date(at(60)).toISOString(),
      },
    ]),
  );
  b.keep(
    join(shop.dir, "checkpoint-before-refactor.json"),
    JSON.stringify([{ role: "user", parts: [{ text: "hi" }] }]),
  );
  b.keep(
    join(shop.dir, "checkpoints", "2026-01-01T10-00-00_000Z-checkout.json"),
    JSON.stringify({ history: [] }),
  );
  b.keep(join(shop.dir, "memory", "MEMORY.md"), "- the shop uses pnpm\n");
  b.keep(join(shop.dir, "shell_history"), "npm test\nnpm run build\n");
  b.keep(join(shop.dir, "tool-outputs", "run_shell_command_1700000000000.txt"), sentence(b.random, 50));
  b.keep(join(root, "history", shop.folder, ".project_root"), shop.path);
  b.keep(join(root, "history", shop.folder, "snapshot"), "ref: refs/heads/main\n");
  b.keep(join(root, "tmp", "bin", "rg"), "#!/bin/sh\n");
  b.keep(
    join(root, "settings.json"),
    `// Gemini CLI settings\n${JSON.stringify({ general: { vimMode: true } }, null, 2)}\n`,
  );
  b.keep(join(root, "installation_id"), uuid(b.random));
  b.keep(join(root, "trustedFolders.json"), JSON.stringify({ [shop.path]: "TRUST_FOLDER" }));
  const facts = b.finish();
  return {
    ...facts,
    projects: { shop, otherShop, myApp, oldApiSlug, oldApiHash, unknownHash, scratch },
    full: facts.sessions[0]!,
  };
}
