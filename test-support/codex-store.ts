// Realistic OpenAI Codex stores for tests, written from the formats in Codex's own code
// (codex-rs/rollout recorder and compression, codex-rs/state) and from
// what the real `codex` 0.169 wrote here — never copied files — together with what a scan must
// find in them. The expectations are worked out from what was written (the lines, the bytes, the
// times), never by asking the adapter, so a test compares two independent accounts.
//
// One seed and one clock give the same bytes in any folder: paths inside the files name a made-up
// user `/home/dev`. Compressed rollouts are made by Debian's `zstd` (a real encoder, independent of
// the decoder we read them with).
import { execFileSync } from "node:child_process";
import { mkdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Random } from "../server/demo/seeded-random.js";

/** The fixed clock: every time in a generated store is before it. */
export const CODEX_NOW = Date.parse("2026-03-02T09:00:00.000Z");
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 86_400_000;

const WORDS = (
  "checkout cart refactor flaky test migration index schema retry timeout parser cache invoice " +
  "webhook queue worker deploy config lint types route handler fixture snapshot bundle release"
).split(" ");
const sentence = (r: Random, words: number) => Array.from({ length: words }, () => r.pick(WORDS)).join(" ");

/** A UUIDv7 as Codex makes thread ids: the first 48 bits are the time in ms. */
const uuidV7 = (r: Random, ms: number) => {
  const t = ms.toString(16).padStart(12, "0");
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${r.hex8().slice(0, 3)}-${r.pick(["8", "9", "a", "b"])}${r.hex8().slice(0, 3)}-${r.hex8()}${r.hex8().slice(0, 4)}`;
};

const pad = (n: number) => String(n).padStart(2, "0");
/** Codex names a rollout by its local start time: `2026-03-02T09-00-00`. */
const localStamp = (ms: number) => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}-${pad(d.getMinutes())}-${pad(d.getSeconds())}`;
};
const localDay = (ms: number) => {
  const d = new Date(ms);
  return join(String(d.getFullYear()), pad(d.getMonth() + 1), pad(d.getDate()));
};

export type Source = "cli" | "vscode" | "exec";

export interface ThreadOptions {
  cwd: string;
  /** Turns of user prompt → assistant reply (with a tool call and event lines between). */
  turns: number;
  source?: Source;
  /** A subagent: spawned by this thread. */
  spawnedBy?: Thread;
  /**
   * A fork of this thread. Written as Codex 0.169 does — a pointer: `history_base` names the
   * parent's rollout and where its inherited history ends, and the fork's file holds only what came
   * after — or, with `oldFormat`, as older versions did: the whole history copied in.
   */
  forkOf?: Thread;
  archived?: boolean;
  /** "only": just `.jsonl.zst`; "both": a plain file and its compressed sibling (Codex reads the plain one). */
  compressed?: "only" | "both";
  /** Size of `base_instructions.text` (Codex's is ~20 KB; a custom one can be far larger). */
  baseInstructionsBytes?: number;
  /** Written as an older Codex did: no `ordinal`, no `history_mode`. */
  oldFormat?: boolean;
  /** No `session_meta`: what a Codex writer that lost its file re-creates at the same path. */
  headerless?: boolean;
  /**
   * A subagent whose `session_meta` has no `parent_thread_id` (its spawner named only inside
   * `source`): a session of its own to our scan, though Codex's database lists it as spawned.
   */
  noParentField?: boolean;
  /** Names given with /rename, in order: each is a line in `session_index.jsonl`, the last wins. */
  names?: string[];
  /** Days before CODEX_NOW it started. */
  ageDays?: number;
}

export class Thread {
  readonly lines: Array<Record<string, unknown>> = [];
  /** The lines that are conversation (copied into a fork). */
  readonly history: Array<Record<string, unknown>> = [];
  path = "";
  /** The plain rollout a `both` thread also has, beside its `.zst`. */
  compressedSibling?: string;
  counts = { user: 0, assistant: 0, other: 0 };
  /** A pointer fork's ordinals go on from its parent's. */
  ordinalBase = 0;
  firstAt = "";
  lastAt = "";
  constructor(
    readonly id: string,
    readonly options: ThreadOptions,
    readonly start: number,
  ) {}
}

export interface ExpectedSession {
  id: string;
  path: string;
  namespace: string;
  createdAt: string;
  lastUsedAt: string;
  messageCount: number;
  messageCounts: { user: number; assistant: number; toolResult: number; other: number };
  name?: string;
  bundle: string[];
  sizeBytes: number;
  parentSession?: string;
  family?: string;
  /** Sessions whose forks read their history from this one's rollout. */
  neededBy: string[];
  warnings: string[];
}

export interface CodexStoreFacts {
  root: string;
  threads: Thread[];
  sessions: ExpectedSession[];
  /** Paths a scan must report as not sessions (and never touch). */
  notSessions: string[];
  /** Files of Codex's own that are never sessions nor problems: a clean leaves them byte-identical. */
  codexOwn: string[];
}

export class CodexStoreBuilder {
  private readonly random: Random;
  readonly threads: Thread[] = [];
  private clock: number;
  private readonly indexLines: string[] = [];

  constructor(
    readonly root: string,
    seed = 16,
  ) {
    this.random = new Random(seed);
    this.clock = CODEX_NOW - 40 * DAY;
  }

  thread(options: ThreadOptions): Thread {
    const start =
      options.ageDays !== undefined
        ? CODEX_NOW - options.ageDays * DAY
        : (this.clock += this.random.int(2, 30) * MINUTE);
    const thread = new Thread(uuidV7(this.random, start), options, start);
    this.threads.push(thread);
    this.write(thread);
    for (const name of options.names ?? [])
      this.indexLines.push(
        JSON.stringify({
          id: thread.id,
          thread_name: name,
          updated_at: new Date(start + 5 * MINUTE).toISOString(),
        }),
      );
    return thread;
  }

  /** A line of Codex's: `{timestamp, ordinal, type, payload}` (older versions: no ordinal). */
  private line(thread: Thread, at: number, type: string, payload: Record<string, unknown>) {
    const timestamp = new Date(at).toISOString();
    const line = thread.options.oldFormat
      ? { timestamp, type, payload }
      : { timestamp, ordinal: thread.ordinalBase + thread.lines.length, type, payload };
    thread.lines.push(line);
    return line;
  }

  private meta(thread: Thread) {
    const { options } = thread;
    const root = options.spawnedBy ? rootOf(options.spawnedBy) : thread;
    const text = `You are Codex, a coding agent. ${"Follow the repository's conventions. ".repeat(
      Math.ceil((options.baseInstructionsBytes ?? 2000) / 36),
    )}`.slice(0, options.baseInstructionsBytes ?? 2000);
    const parent = options.forkOf;
    const pointer =
      parent && !options.oldFormat
        ? {
            thread_id: parent.id,
            end_ordinal_exclusive: parent.ordinalBase + parent.lines.length,
            end_byte_offset: statSync(parent.path).size,
          }
        : undefined;
    const spawn = options.spawnedBy
      ? {
          parent_thread_id: options.spawnedBy.id,
          depth: depthOf(thread),
          agent_path: null,
          agent_nickname: "Banach",
          agent_role: null,
        }
      : undefined;
    return {
      ...(options.oldFormat ? {} : { session_id: root.id }),
      id: thread.id,
      ...(options.forkOf ? { forked_from_id: options.forkOf.id } : {}),
      ...(pointer ? { forked_from_ordinal_exclusive: pointer.end_ordinal_exclusive } : {}),
      ...(spawn && !options.noParentField ? { parent_thread_id: spawn.parent_thread_id } : {}),
      timestamp: new Date(thread.start - 40).toISOString(),
      cwd: options.cwd,
      originator: options.source === "vscode" ? "codex_vscode" : "codex_cli_rs",
      cli_version: options.oldFormat ? "0.46.0" : "0.169.0",
      source: spawn ? { subagent: { thread_spawn: spawn } } : (options.source ?? "cli"),
      ...(spawn ? { thread_source: "subagent", agent_nickname: "Banach" } : { thread_source: "user" }),
      model_provider: "openai",
      base_instructions: { text },
      ...(options.oldFormat ? {} : { history_mode: "paginated" }),
      ...(pointer ? { history_base: pointer } : {}),
      git: { commit_hash: this.random.hex8() + this.random.hex8(), branch: "main" },
    };
  }

  private write(thread: Thread) {
    const r = this.random;
    const { options } = thread;
    let at = thread.start;
    const tick = () => (at += r.int(1, 20) * SECOND);
    if (options.forkOf && !options.oldFormat)
      thread.ordinalBase = options.forkOf.ordinalBase + options.forkOf.lines.length;
    if (!options.headerless) this.line(thread, at, "session_meta", this.meta(thread));
    if (options.forkOf && options.oldFormat)
      for (const copied of options.forkOf.history) {
        const line = this.line(
          thread,
          tick(),
          String(copied.type),
          copied.payload as Record<string, unknown>,
        );
        thread.history.push(line);
      }
    for (let turn = 0; turn < options.turns; turn++) {
      const conversation = (type: string, payload: Record<string, unknown>) => {
        const line = this.line(thread, tick(), type, payload);
        thread.history.push(line);
      };
      this.line(thread, tick(), "event_msg", { type: "task_started", model_context_window: 258400 });
      this.line(thread, tick(), "turn_context", {
        cwd: options.cwd,
        approval_policy: "on-request",
        model: "gpt-5",
      });
      conversation("response_item", {
        type: "message",
        role: "user",
        content: [{ type: "input_text", text: `please ${sentence(r, 6)}` }],
      });
      conversation("response_item", {
        type: "function_call",
        name: "exec_command",
        arguments: JSON.stringify({ cmd: `rg ${r.pick(WORDS)}` }),
        call_id: `call_${r.hex8()}`,
      });
      conversation("response_item", {
        type: "function_call_output",
        call_id: `call_${r.hex8()}`,
        output: sentence(r, r.int(5, 40)),
      });
      conversation("response_item", {
        type: "message",
        role: "assistant",
        content: [{ type: "output_text", text: sentence(r, r.int(8, 30)) }],
      });
      this.line(thread, tick(), "event_msg", {
        type: "token_count",
        info: { total_token_usage: { total_tokens: r.int(100, 9000) } },
      });
      this.line(thread, tick(), "event_msg", { type: "task_complete", last_agent_message: sentence(r, 4) });
    }
    // What a scan counts: every line after the header, messages by role.
    for (const line of thread.lines.slice(options.headerless ? 0 : 1)) {
      const payload = line.payload as { type?: string; role?: string };
      const role = line.type === "response_item" && payload.type === "message" ? payload.role : undefined;
      if (role === "user" || role === "assistant") thread.counts[role] += 1;
      else thread.counts.other += 1;
    }
    thread.firstAt = String(thread.lines[0]?.timestamp);
    thread.lastAt = String(thread.lines.at(-1)?.timestamp);
    const text = thread.lines.map((line) => `${JSON.stringify(line)}\n`).join("");
    const name = `rollout-${localStamp(thread.start)}-${thread.id}.jsonl`;
    const folder = options.archived
      ? join(this.root, "archived_sessions")
      : join(this.root, "sessions", localDay(thread.start));
    mkdirSync(folder, { recursive: true });
    const plain = join(folder, name);
    writeFileSync(plain, text);
    const mtime = new Date(at + SECOND);
    utimesSync(plain, mtime, mtime);
    thread.path = plain;
    if (options.compressed) {
      execFileSync("zstd", [
        "-q",
        "-19",
        options.compressed === "only" ? "--rm" : "-k",
        "-f",
        plain,
        "-o",
        `${plain}.zst`,
      ]);
      utimesSync(`${plain}.zst`, mtime, mtime);
      if (options.compressed === "only") thread.path = `${plain}.zst`;
      else thread.compressedSibling = `${plain}.zst`;
    }
  }

  /** Writes the index, Codex's own files and the look-alikes, and works out what a scan must find. */
  finish(): CodexStoreFacts {
    const root = this.root;
    // An index line of a thread that is not here (deleted outside Codex): harmless, never a session.
    this.indexLines.push(
      JSON.stringify({
        id: uuidV7(this.random, CODEX_NOW - DAY),
        thread_name: "gone",
        updated_at: "2026-03-01T00:00:00Z",
      }),
    );
    writeFileSync(join(root, "session_index.jsonl"), this.indexLines.map((l) => `${l}\n`).join(""));
    const codexOwn = [
      join(root, "session_index.jsonl"),
      join(root, "history.jsonl"),
      join(root, "config.toml"),
      join(root, "auth.json"),
      join(root, "log", "codex-tui.log"),
      join(root, "generated_images", "img-1.png"),
    ];
    writeFileSync(
      codexOwn[1]!,
      `${JSON.stringify({ session_id: this.threads[0]?.id, ts: 1, text: "hi" })}\n`,
    );
    writeFileSync(codexOwn[2]!, 'model = "gpt-5"\n');
    writeFileSync(codexOwn[3]!, "{}\n");
    mkdirSync(dirname(codexOwn[4]!), { recursive: true });
    writeFileSync(codexOwn[4]!, "INFO codex started\n");
    mkdirSync(dirname(codexOwn[5]!), { recursive: true });
    writeFileSync(codexOwn[5]!, "png");
    // Look-alikes inside the rollout folders: reported, never sessions.
    const notSessions = [
      join(root, "sessions", "notes.txt"),
      join(root, "sessions", "2026", "README.md"),
      join(root, "archived_sessions", "rollout-notes.jsonl"),
    ];
    for (const path of notSessions) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, "not a rollout\n");
    }
    return { root, threads: this.threads, sessions: this.expected(), notSessions, codexOwn };
  }

  /** What a scan must find, from what was written. */
  private expected(): ExpectedSession[] {
    const names = new Map<string, string>();
    for (const line of this.indexLines) {
      const { id, thread_name } = JSON.parse(line) as { id: string; thread_name: string };
      names.set(id, thread_name);
    }
    const owner = (t: Thread): Thread => (t.options.spawnedBy ? owner(t.options.spawnedBy) : t);
    const owners = this.threads.filter((t) => !t.options.spawnedBy);
    const familyRoot = (t: Thread): Thread => (t.options.forkOf ? familyRoot(owner(t.options.forkOf)) : t);
    const familySize = new Map<Thread, number>();
    for (const t of owners) familySize.set(familyRoot(t), (familySize.get(familyRoot(t)) ?? 0) + 1);
    const size = (path: string) => statSync(path).size;
    return owners.map((t) => {
      const subagents = this.threads.filter((s) => s !== t && owner(s) === t);
      const all = [t, ...subagents];
      const bundle = [
        ...(t.compressedSibling ? [t.compressedSibling] : []),
        ...subagents.flatMap((s) => [s.path, ...(s.compressedSibling ? [s.compressedSibling] : [])]),
      ].sort();
      const sum = (pick: (x: Thread) => number) => all.reduce((n, x) => n + pick(x), 0);
      const root = familyRoot(t);
      const warnings = t.options.headerless ? ["missing-header"] : [];
      // A session_meta line over 1 MiB is read from its ends, and says so.
      if ((t.options.baseInstructionsBytes ?? 0) > 1024 * 1024) warnings.push("line-too-long");
      return {
        id: `codex:${t.id}`,
        path: t.path,
        namespace: t.options.headerless ? "(unknown: no session_meta)" : t.options.cwd,
        createdAt: t.options.headerless ? t.firstAt : new Date(t.start - 40).toISOString(),
        lastUsedAt: all
          .map((x) => x.lastAt)
          .sort()
          .at(-1)!,
        messageCount: sum((x) => x.lines.length - (x.options.headerless ? 0 : 1)),
        messageCounts: {
          user: sum((x) => x.counts.user),
          assistant: sum((x) => x.counts.assistant),
          toolResult: 0,
          other: sum((x) => x.counts.other),
        },
        ...(names.has(t.id) ? { name: names.get(t.id)! } : {}),
        bundle,
        sizeBytes: size(t.path) + bundle.reduce((n, p) => n + size(p), 0),
        ...(t.options.forkOf ? { parentSession: owner(t.options.forkOf).path } : {}),
        ...(familySize.get(root)! > 1 ? { family: `codex:${root.id}` } : {}),
        neededBy: owners
          .filter((f) => f.options.forkOf && !f.options.oldFormat && owner(f.options.forkOf) === t)
          .map((f) => `codex:${f.id}`)
          .sort(),
        warnings,
      };
    });
  }
}

/**
 * The files Codex 0.171's TUI keeps per thread outside its rollout: a shell snapshot (the shell's
 * options, functions and exports, ~4 KB; the name carries a nanosecond stamp), the writer lock and
 * the reference-capabilities file (both empty). Returns their paths, snapshot first.
 */
export function writeThreadFiles(
  root: string,
  thread: string,
  /** `atMs`: their time, the thread's start (default: a day before the clock). */
  options: { snapshot?: boolean; atMs?: number } = {},
): string[] {
  const r = new Random(thread.split("").reduce((n, c) => n + c.charCodeAt(0), 0));
  const paths: string[] = [];
  if (options.snapshot !== false) {
    const functions = Array.from(
      { length: 40 },
      (_, i) => `${r.pick(WORDS)}_${i} () \n{ \n    command ${r.pick(WORDS)} "$@"\n}`,
    );
    const text = [
      "# Snapshot file",
      "# Unset all aliases to avoid conflicts with functions",
      "unalias -a 2>/dev/null || true",
      "# Functions",
      ...functions,
      "# setopts 3",
      "set -o braceexpand",
      "set -o hashall",
      "set -o interactive-comments",
      "# aliases 0",
      "# exports 4",
      'declare -x HOME="/home/dev"',
      'declare -x LANG="C.UTF-8"',
      'declare -x PATH="/usr/local/bin:/usr/bin:/bin"',
      'declare -x SHELL="/bin/bash"',
      "",
    ].join("\n");
    paths.push(
      join(root, "shell_snapshots", `${thread}.${1_764_000_000_000_000_000n + BigInt(r.int(0, 1e9))}.sh`),
    );
    mkdirSync(dirname(paths[0]!), { recursive: true });
    writeFileSync(paths[0]!, text);
  }
  for (const path of [
    join(root, "thread-writer-locks", `${thread}.lock`),
    join(root, "tui-thread-reference-capabilities", thread),
  ]) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, "");
    paths.push(path);
  }
  const at = new Date(options.atMs ?? CODEX_NOW - DAY);
  for (const path of paths) utimesSync(path, at, at);
  return paths;
}

/** A thread id as Codex makes them (for a thread that has per-thread files and no rollout). */
export const newThreadId = (seed: number) => uuidV7(new Random(seed), CODEX_NOW - DAY);

const rootOf = (thread: Thread): Thread =>
  thread.options.spawnedBy ? rootOf(thread.options.spawnedBy) : thread;
const depthOf = (thread: Thread): number =>
  thread.options.spawnedBy ? 1 + depthOf(thread.options.spawnedBy) : 0;

/**
 * The standard store: live and archived threads in nested date folders, a family (a root, a fork
 * of it, a fork of the fork — pointers, as 0.169 writes them — subagents of the root and of a
 * fork, a subagent's own subagent), an older Codex's family (its fork a full copy),
 * compressed rollouts (alone and beside their plain file), an old-format thread, a headerless
 * re-created file, a huge `base_instructions`, renamed threads.
 */
export function writeCodexStore(root: string, seed = 16): CodexStoreFacts {
  const b = new CodexStoreBuilder(root, seed);
  const shop = "/home/dev/shop";
  const rootThread = b.thread({ cwd: shop, turns: 6, names: ["checkout", "checkout rework"] });
  const helper = b.thread({ cwd: shop, turns: 2, spawnedBy: rootThread });
  b.thread({ cwd: shop, turns: 1, spawnedBy: helper });
  const fork = b.thread({ cwd: shop, turns: 3, forkOf: rootThread, names: ["checkout (fork)"] });
  b.thread({ cwd: shop, turns: 1, spawnedBy: fork });
  b.thread({ cwd: shop, turns: 2, forkOf: fork });
  b.thread({ cwd: "/home/dev/api", turns: 4, source: "vscode" });
  b.thread({ cwd: "/home/dev/api", turns: 3, archived: true, compressed: "only", ageDays: 30 });
  b.thread({ cwd: "/home/dev/api", turns: 2, archived: true, compressed: "both", ageDays: 20 });
  const legacy = b.thread({ cwd: "/home/dev/legacy", turns: 2, oldFormat: true, ageDays: 35 });
  b.thread({ cwd: "/home/dev/legacy", turns: 1, oldFormat: true, forkOf: legacy, ageDays: 34 });
  b.thread({ cwd: "/home/dev/docs", turns: 1, baseInstructionsBytes: 3 * 1024 * 1024 });
  b.thread({ cwd: "/home/dev/shop", turns: 1, headerless: true });
  return b.finish();
}
