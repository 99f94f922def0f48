// The one interface every agent's adapter implements (each agent one folder of server/stores/, its
// `adapter.ts` exporting one `StoreAdapter`; the registry that lists them is store-adapter.ts). What
// the adapter knows without reading anything — where sessions are, how deep to watch — is on the
// object itself; what reads the agent's files (finding and measuring sessions, live sessions, its own
// sweep, a session's detail, its delete) is its `StoreReader`, loaded the first time it is needed.
import type { ExternalSweep } from "../../shared/plan.js";
import type { ScanProblem } from "../../shared/scan-report.js";
import type { Fingerprint, SessionRecord, StoreKind } from "../../shared/session-record.js";
import type { TrashEntry, TrashItem } from "../../shared/trash.js";
import type { SessionDetail } from "./session-detail.js";

/**
 * An agent's store, as the engine, the scan and the watcher need it. One object per agent, in its
 * own folder (`server/stores/<kind>/adapter.ts`), listed once in `STORE_ADAPTERS`.
 */
export interface StoreAdapter {
  kind: StoreKind;
  /**
   * How many folder levels below its root the store is watched (fs/tree-watcher.ts): as deep as its
   * sessions and their parts are kept. A write deeper than that raises no event on Linux; the
   * dashboard's reconciliation finds it.
   */
  watchDepth: number;
  /**
   * Where the agent keeps its stores when nothing names them (no flag, no config): from its own
   * environment variables (`PI_CODING_AGENT_DIR`, `CLAUDE_CONFIG_DIR`, `CODEX_HOME`…), else the home
   * folder. Store resolution looks there, and the place gate keeps a quarantine out of them whether
   * they exist or not. Only paths: nothing is loaded, and only the agent's own small settings file
   * read. Absent: the agent has no default store (sandbox workspaces are always named).
   */
  defaultStores?(env: NodeJS.ProcessEnv): DefaultStores;
  /**
   * Whether the folder at one of its default stores holds sessions yet (an agent's folder may hold
   * only its settings): only then is it looked at unasked. Absent: each is looked at, and one that
   * is no usable folder passed over (with a note, unless `quiet`).
   */
  isStore?(root: string): boolean;
  /**
   * Whether `path` is where this store at `root` keeps a session or a part of one: the places its
   * scan recognises sessions in, and the only places the deletion engine will move anything from —
   * judged again at the moment of the move.
   */
  isSessionPlace(root: string, path: string): boolean;
  /**
   * Whether a part of a session may go back to `path` now (a restore). Default: yes — inside the
   * root the session goes back as it came; an adapter whose sessions have parts outside their
   * store (Claude Code's temp folder) says when such a part may.
   */
  isReturnPlace?(root: string, path: string): boolean;
  /**
   * Its sessions are single files read by the incremental file scanner (server/scan/scanner.ts: the
   * walk, the parse cache, reads resumed where a file only grew), built for stores of 100,000
   * files — pi's. Its reader then has no `scan` of its own.
   */
  readByFileScanner?: true;
  /**
   * For an agent whose own command deletes a session (so that its index and database stay whole):
   * how the deletion engine hands a session over to it. Without one, each part is renamed into the
   * trash. On the object, not the reader: crash recovery, which runs first under the
   * deletion lock, is synchronous.
   */
  custody?: Custody;
  /**
   * For an agent whose running processes are what shows which of its sessions are live (pi closes
   * its file between entries, so no open file shows it): its processes, and the sessions each may
   * be writing. The engine (state/active-sessions.ts) reads our extension's markers and the open
   * files for every kind; a process a marker names is exact, and only the others are asked about
   * here. On the object, not the reader: the detection is synchronous.
   */
  processes?: AgentProcesses;
  /** Its reader: loaded on demand, so a scan of pi stores alone never pays for the others (nor for zod). */
  load(): Promise<StoreReader>;
}

/** An agent's running processes, and what they say of its live sessions (`StoreAdapter.processes`). */
export interface AgentProcesses {
  /** Its processes running now that we may look at (none off Linux, nor another user's), but this one. */
  running(): AgentProcess[];
  /**
   * The sessions among `sessions` that `running` (processes no marker of ours names) may be
   * writing, by path: which process, and how we know, in words.
   */
  liveSessions(
    running: readonly AgentProcess[],
    sessions: readonly SessionRecord[],
  ): Map<string, { pid: number; how: string }>;
}

/** A process of an agent, as /proc shows it. */
export interface AgentProcess {
  pid: number;
  /** Its working folder: the project whose sessions it writes. */
  cwd: string;
  /** When it started, ms since the epoch (to /proc's precision: see `START_TOLERANCE_MS`). */
  startedMs: number;
  /** The stores its environment names (real paths where they exist): where it writes. */
  stores: string[];
}

/** Where an agent keeps its stores by default (`StoreAdapter.defaultStores`). */
export interface DefaultStores {
  stores: DefaultStore[];
  /** Its settings we could not use, said plainly: reported, never replaced by a guess. */
  notes?: string[];
}

export interface DefaultStore {
  root: string;
  /** As notes name it: "Claude Code's store", "pi's default session dir". */
  label: string;
  /** Passed over without a note when it is no usable folder (where the agent has not written yet). */
  quiet?: boolean;
}

export interface StoreScan {
  records: SessionRecord[];
  /** Things in the store that are not sessions we can use: reported, never followed or deleted. */
  problems: ScanProblem[];
}

/**
 * Something an agent's own delete of a session removes beyond the session's own files, by the
 * agent's own records (Codex: a thread its database lists as spawned by the session's thread).
 */
export interface AlsoDeleted {
  /** What the agent calls it, in a few words: "its spawned thread 019b…". */
  what: string;
  /** The session of the scan it is, whole (its own file and bundle). */
  session?: string;
  /** Its file, when it is no whole session of the scan: a part of one, or a file the scan could not read. */
  path?: string;
}

export interface SweptAgain {
  message: string;
  keepable: boolean;
}

/** What an agent's adapter reads its files with (`StoreAdapter.load`). */
export interface StoreReader {
  /** How a session unit is found and measured under `root` (absent only where `readByFileScanner`). */
  scan?(root: string): StoreScan;
  /**
   * The scan of `root` after a watcher saw `changed` (paths under it) since `previous`, its last
   * scan, made from `previous` by measuring again only what those paths touch — or undefined when
   * a change is not one it can place that way; then `scan` runs. Without it, every change scans
   * the whole store.
   */
  rescanChanged?(root: string, previous: StoreScan, changed: Iterable<string>): StoreScan | undefined;
  /**
   * Sessions the agent's running processes use that no open file shows (Claude Code closes its
   * transcript between writes): id → how we know. Open files and the grace window apply to every kind.
   */
  liveSessions?(root: string, sessions: readonly SessionRecord[]): Map<string, string>;
  /**
   * For an agent whose own command deletes a session (we take our copy first): what the agent's own
   * records say that command takes (Codex: the spawn edges of its state database), read afresh for
   * every plan and just before a delete — never our scan, which can miss what the agent knows.
   * Opaque to the engine: it is handed to `alsoDeletes`.
   */
  agentRecords?(root: string, env: NodeJS.ProcessEnv): Promise<unknown>;
  /**
   * The files `agentRecords` reads (Codex: its state database, the database's log, the folders it
   * is chosen from): while none of them changed (stat-compared), a long-lived caller (the
   * dashboard's looks) keeps what it read and does not ask the agent again.
   */
  agentRecordFiles?(root: string, env: NodeJS.ProcessEnv): readonly string[];
  /**
   * What the agent's own delete would also take with each of `ids` (sessions of `scan`, this
   * store's), judged from `records` (what `agentRecords` read). Only sessions that take something
   * are in the answer. A string: the agent could not be asked (then none of them is deleted), said why.
   */
  alsoDeletes?(
    scan: StoreScan,
    ids: readonly string[],
    records: unknown,
  ): Map<string, AlsoDeleted[]> | string;
  /** The agent's own retention: what it will delete for good in this store next, if anything. */
  externalSweep?(root: string, sessions: readonly SessionRecord[], now: Date): ExternalSweep | undefined;
  /**
   * After a restore: why the agent's own retention would delete the session again, if it would, and
   * whether `keep` can stop it (it can where the agent judges the file time, which `keep` refreshes).
   */
  sweptAgain?(entry: TrashEntry, now: Date): SweptAgain | undefined;
  /**
   * The agent's own check of its store at `root`, run after a delete from it or a restore into it
   * (Codex: `codex doctor`): its verdict in a sentence. `restored`: after a restore, the paths it
   * put back — what the agent's records may not know again until it next starts.
   */
  checkAfterChange?(
    root: string,
    env: NodeJS.ProcessEnv,
    restored?: readonly string[],
  ): { status: "ok" | "warning" | "fail" | "unavailable"; message: string };
  /**
   * One session in detail for the dashboard's drawer (entry counts, branches, a preview), read from
   * the file its record was made from (`recorded`: else a `SessionFileChangedError`, a 409). Absent:
   * the agent's format has none we read.
   */
  sessionDetail?(path: string, recorded: Pick<Fingerprint, "dev" | "ino" | "size">): Promise<SessionDetail>;
}

/**
 * An agent that deletes its sessions itself. The engine's side (server/delete/handover.ts) takes our
 * copy first — every part hard-linked into the quarantine, so the copy is the very file — then has
 * the agent delete the session, looks that nothing outside it went, and removes what the agent left
 * of it; this is the agent's side. What a move needs is checked before anything moves.
 */
export interface Custody {
  /**
   * Which of its store's sessions go through the agent, by path (the rest move by renames); among an
   * item's parts, those whose presence says the agent deleted nothing yet.
   */
  takes(path: string): boolean;
  /** Why none of these sessions can be handed over now (the agent's own tool is missing), if so. */
  blocked(env: NodeJS.ProcessEnv): string | undefined;
  /** The agent's index lines naming the session, recorded with its intent: a restore puts them back. */
  indexLines(record: { store: { root: string }; path: string; bundle?: string[] }): string[];
  /**
   * The agent's own delete of the item, our links made: ok, or the agent's own words. `crash` is the
   * crash harness's hook, called once the agent is done.
   */
  remove(
    item: TrashItem,
    env: NodeJS.ProcessEnv,
    crash: (step: string) => void,
  ): { ok: true } | { ok: false; message: string };
  /** What the agent may still show of an item it deleted, each in a sentence (none: it is gone). */
  proveGone(item: TrashItem, env: NodeJS.ProcessEnv, exists: (path: string) => boolean): string[];
  /**
   * Recovery's first step: waits while a delete of the item that a killed process of ours left
   * running is still at work (it may still remove the originals). Synchronous, as recovery is.
   */
  awaitRunning(item: TrashItem): void;
  /**
   * A restore's index lines made ready before anything moves back: the index opened to append to,
   * or why it cannot be (a symlink, a FIFO…); then the entry stays in the trash.
   */
  indexRestore(item: TrashItem): IndexRestore | string;
}

/** What a restore puts back into an agent's index once the files are back, and the index held open till then. */
export interface IndexRestore {
  /** Appends the entry's lines (those the index lacks). */
  put(): void;
  close(): void;
}

/** How a store's sessions are moved, and why they cannot be now, if so. */
export interface StoreMoveRule {
  way: "rename" | "link";
  blocked?: string;
  /** The sessions the rule is for, by path (absent: all of the store's); the rest move by renames. */
  applies?: (path: string) => boolean;
}
