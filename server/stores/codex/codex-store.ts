// OpenAI Codex's store (`$CODEX_HOME` or `~/.codex`): one rollout per thread, in
// `sessions/YYYY/MM/DD/` or, archived, flat in `archived_sessions/`, plain `.jsonl` or compressed
// `.jsonl.zst` (Codex reads the plain file when both are there: both names are one rollout).
//
// What is one session here is decided by what `codex delete` removes together: a thread and the
// subagent threads it spawned (recursively). So a session is a thread that is not a subagent, with
// its subagents' rollouts as its bundle; a subagent whose spawner is gone is a session of its own.
// A fork (`forked_from_id`) is a session of its own, linked to where it came from; Codex 0.169
// writes it as a pointer (`history_base`: it reads the inherited history from that rollout), which
// keeps that session while the fork exists — older Codex versions copied the history in. A family — a root thread with its
// forks (and their subagents) — is named on each of its sessions, so it can be shown and chosen as one.
//
// A thread's files outside its rollout — its shell snapshot, writer lock and TUI capabilities file
// (thread-files.ts) — are in its session's bundle; those of a thread with no rollout are an orphaned
// item of their own.
//
// Never part of a session: `history.jsonl`, the SQLite databases, logs, `generated_images/`,
// config, auth. They are not walked into and not reported: only `sessions/` and `archived_sessions/` are ours to judge.
import { lstatSync, readdirSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import type { ScanProblem } from "../../../shared/scan-report.js";
import type { SessionRecord, SessionWarning, StoreRef } from "../../../shared/session-record.js";
import type { FileIdentity } from "../../fs/file-identity.js";
import { addBundle, orphanedBundle, withBundle } from "../bundle.js";
import type { StoreScan } from "../adapter-types.js";
import { ARCHIVED, SESSION_INDEX, SESSIONS } from "./location.js";
import { parseRolloutName } from "./rollout-name.js";
import { type RolloutFacts, readRollout } from "./rollout.js";
import { readSessionIndex } from "./session-index.js";
import { isThreadFile, ORPHAN_THREAD_FILES, THREAD_FILE_FOLDERS, threadFiles } from "./thread-files.js";
import { strayEntry } from "../stray-entry.js";
import { FactsCache } from "../facts-cache.js";
import { type Placed, rescanPlaced } from "../watched-rescan.js";
import { laterOf, readCapWarning } from "../read-caps.js";

/** A rollout unchanged since the last scan is not read again (a server rescans every few seconds). */
const rolloutCache = new FactsCache<RolloutFacts>("codex-rollout@1", readRollout);
const rolloutFacts = (path: string) => rolloutCache.get(path);

/** One thread's rollout as found on disk. */
interface Rollout {
  thread: string;
  /** What Codex reads: the plain file when there is one, else the compressed one. */
  path: string;
  /** A `.jsonl.zst` beside a plain file: the same rollout, hidden by it; it goes with it. */
  hiddenSibling?: string;
  stamp: string;
  facts: RolloutFacts;
  identity: FileIdentity;
}

const names = (folder: string): string[] => {
  try {
    return readdirSync(folder).sort();
  } catch {
    return [];
  }
};

const DATE_PARTS = [/^\d{4}$/, /^\d{2}$/, /^\d{2}$/];

/** The folders rollouts are kept in: `sessions/YYYY/MM/DD` (anything else there is reported), and `archived_sessions`. */
function rolloutFolders(root: string, problems: ScanProblem[]): string[] {
  const folders: string[] = [];
  const visit = (folder: string, depth: number) => {
    for (const name of names(folder)) {
      const path = join(folder, name);
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (!stat) continue;
      if (stat.isDirectory() && DATE_PARTS[depth]!.test(name)) {
        if (depth === 2) folders.push(path);
        else visit(path, depth + 1);
      } else if (depth < 2 || !stat.isFile() || !parseRolloutName(name))
        problems.push(
          strayEntry(
            stat,
            path,
            "codex",
            "not where Codex keeps rollouts (sessions/YYYY/MM/DD/rollout-*.jsonl)",
          ),
        );
    }
  };
  visit(join(root, SESSIONS), 0);
  if (lstatSync(join(root, ARCHIVED), { throwIfNoEntry: false })?.isDirectory())
    folders.push(join(root, ARCHIVED));
  return folders;
}

/** The rollouts of one folder; what else is there is reported. */
function rolloutsIn(folder: string, problems: ScanProblem[]): Rollout[] {
  const byPlainName = new Map<
    string,
    { plain?: string; compressed?: string; stamp: string; thread: string }
  >();
  for (const name of names(folder)) {
    const path = join(folder, name);
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (!stat) continue;
    const parsed = parseRolloutName(name);
    if (!parsed || !stat.isFile()) {
      problems.push(strayEntry(stat, path, "codex", "not a Codex rollout"));
      continue;
    }
    const plainName = parsed.compressed ? name.slice(0, -".zst".length) : name;
    const entry = byPlainName.get(plainName) ?? { stamp: parsed.stamp, thread: parsed.thread };
    if (parsed.compressed) entry.compressed = path;
    else entry.plain = path;
    byPlainName.set(plainName, entry);
  }
  const rollouts: Rollout[] = [];
  for (const { plain, compressed, stamp, thread } of byPlainName.values()) {
    const path = (plain ?? compressed)!;
    try {
      const { facts, identity } = rolloutFacts(path);
      rollouts.push({
        thread,
        path,
        ...(plain && compressed ? { hiddenSibling: compressed } : {}),
        stamp,
        facts,
        identity,
      });
    } catch (error) {
      problems.push({ code: "unreadable", path, message: (error as Error).message });
    }
  }
  return rollouts;
}

const iso = (ms: number) => new Date(ms).toISOString();
const validTime = (time: string | undefined) =>
  time !== undefined && !Number.isNaN(Date.parse(time)) ? new Date(time).toISOString() : undefined;
/** The name's time is Codex's local time (no zone): read as local, as Codex wrote it. */
const stampTime = (stamp: string) => validTime(`${stamp.slice(0, 10)}T${stamp.slice(11).replace(/-/g, ":")}`);

export function scanCodexRoot(root: string): StoreScan {
  const store: StoreRef = { kind: "codex", root };
  const problems: ScanProblem[] = [];
  const rollouts: Rollout[] = [];
  for (const folder of rolloutFolders(root, problems)) rollouts.push(...rolloutsIn(folder, problems));

  // The same thread twice (a copy in sessions/ and archived_sessions/): Codex would open one of
  // them, and `codex delete <id>` would remove whichever it finds — neither can be deleted safely.
  const byThread = new Map<string, Rollout>();
  const duplicates = new Set<Rollout>();
  for (const rollout of rollouts) {
    const first = byThread.get(rollout.thread);
    if (first) duplicates.add(rollout).add(first);
    else byThread.set(rollout.thread, rollout);
  }

  /** The thread that spawned a subagent, when it is here (a subagent's own subagents chain up). */
  const spawner = (rollout: Rollout) => {
    const parent = rollout.facts.header?.parentThread?.toLowerCase();
    const found = parent !== undefined && parent !== rollout.thread ? byThread.get(parent) : undefined;
    return found && !duplicates.has(found) && !duplicates.has(rollout) ? found : undefined;
  };
  /** The session a rollout belongs to: the top of its spawn chain. */
  const ownerOf = (rollout: Rollout) => topOf(rollout, spawner);
  const members = new Map<Rollout, Rollout[]>();
  for (const rollout of rollouts) {
    const owner = ownerOf(rollout);
    members.set(owner, [...(members.get(owner) ?? []), ...(owner === rollout ? [] : [rollout])]);
  }

  const index = readSessionIndex(root);
  const perThread = threadFiles(root);
  const records = new Map<Rollout, SessionRecord>();
  for (const [owner, subagents] of members) {
    const record = sessionRecord(
      store,
      owner,
      subagents,
      index.get(owner.thread)?.name,
      duplicates.has(owner),
    );
    records.set(owner, record);
    if (!duplicates.has(owner)) headersOf.set(record, headerKey([owner, ...subagents]));
    // Each thread's files outside its rollout, taken once (a thread with two rollouts has one set).
    addBundle(
      record,
      [owner, ...subagents].flatMap((r) => {
        const files = perThread.get(r.thread) ?? [];
        perThread.delete(r.thread);
        return files;
      }),
    );
  }

  // Lineage: a fork names where it came from; a family is everything that came from one root.
  const sessionOfThread = (thread: string | undefined) => {
    const rollout = thread ? byThread.get(thread.toLowerCase()) : undefined;
    return rollout ? ownerOf(rollout) : undefined;
  };
  const origin = (owner: Rollout) => {
    const from = sessionOfThread(owner.facts.header?.forkedFrom);
    return from && from !== owner ? from : undefined;
  };
  const familyRoot = (owner: Rollout) => topOf(owner, origin);
  const families = new Map<Rollout, Rollout[]>();
  for (const owner of records.keys()) {
    const parent = origin(owner);
    if (parent) records.get(owner)!.parentSession = parent.path;
    // A fork that reads its history from another rollout: that session is kept while it exists
    // (and Codex itself refuses to delete it).
    const reads = sessionOfThread(owner.facts.header?.historyBase);
    if (reads && reads !== owner) (records.get(reads)!.neededBy ??= []).push(records.get(owner)!.id);
    const rootOf = familyRoot(owner);
    families.set(rootOf, [...(families.get(rootOf) ?? []), owner]);
  }
  for (const [rootOf, family] of families)
    if (family.length > 1) for (const owner of family) records.get(owner)!.family = records.get(rootOf)!.id;

  // Per-thread files of threads with no rollout: one item each, named by what it is.
  const orphans = [...perThread].flatMap(([thread, paths]) => {
    const record = orphanedBundle(
      store,
      `codex-orphan:${thread}`,
      "(orphaned Codex per-thread files)",
      paths,
    );
    return record ? [{ ...record, name: ORPHAN_THREAD_FILES }] : [];
  });
  rolloutCache.forgetUnasked(root);
  return { records: [...records.values(), ...orphans], problems };
}

/**
 * The headers of a session's rollouts, which decide everything across the store — what spawned a
 * subagent, where a fork came from and reads from — kept with each record a scan made, so that a
 * watched change can tell whether a session is still the same one (see `rescanCodexChanged`).
 */
const headersOf = new WeakMap<SessionRecord, string>();
const headerKey = (rollouts: readonly Rollout[]) =>
  JSON.stringify(rollouts.map((r) => [r.path, r.facts.header ?? null, r.facts.headerTooLong]));

/**
 * The scan of a store a watcher saw `changed` (paths under `root`) in since `previous`, its last
 * scan: Codex appends to a thread's rollout as it works, and writes its logs, `history.jsonl` and
 * SQLite databases beside — a whole scan for each was the cost of the store. Here only the
 * sessions whose rollouts changed are read again; paths no scan reads are passed over. Undefined
 * when a change is not an append to a known session's rollouts with the same headers (a rollout
 * came or went, a name changed in `session_index.jsonl`, a thread has two rollouts): the caller
 * scans the store.
 */
export function rescanCodexChanged(
  root: string,
  previous: StoreScan,
  changed: Iterable<string>,
): StoreScan | undefined {
  const place = (path: string): Placed => {
    const top = relative(root, path).split(sep)[0]!;
    if (top === "" || top === ".." || top === SESSION_INDEX) return undefined; // names: read with the whole store
    // A thread's file outside its rollout came, went or changed: which session (or orphan) it is
    // part of is decided across the store.
    if (THREAD_FILE_FOLDERS.some(([folder]) => folder === top)) return undefined;
    if (top !== SESSIONS && top !== ARCHIVED) return "unread"; // logs, history.jsonl, databases
    return path; // a rollout is a file: its own part
  };
  return rescanPlaced(previous, changed, place, reread);
}

/** `old`'s record read again from its rollouts now, if they are all there with the same headers. */
function reread(old: SessionRecord): SessionRecord | undefined {
  const was = headersOf.get(old);
  if (was === undefined) return undefined;
  const side = (old.bundle ?? []).filter((path) => isThreadFile(old.store.root, path));
  const files = [old.path, ...(old.bundle ?? []).filter((path) => !side.includes(path))];
  const hidden = new Set(
    files.filter((f) => f.endsWith(".zst") && files.includes(f.slice(0, -".zst".length))),
  );
  const rollouts: Rollout[] = [];
  for (const path of files) {
    if (!lstatSync(path, { throwIfNoEntry: false })?.isFile()) return undefined;
    if (hidden.has(path)) continue;
    const name = parseRolloutName(basename(path));
    if (!name) return undefined;
    let read;
    try {
      read = rolloutFacts(path);
    } catch {
      return undefined;
    }
    rollouts.push({
      thread: name.thread,
      path,
      ...(hidden.has(`${path}.zst`) ? { hiddenSibling: `${path}.zst` } : {}),
      stamp: name.stamp,
      facts: read.facts,
      identity: read.identity,
    });
  }
  if (headerKey(rollouts) !== was) return undefined;
  const [owner, ...subagents] = rollouts;
  const fresh = sessionRecord(old.store, owner!, subagents, old.name, false);
  if (side.some((path) => !lstatSync(path, { throwIfNoEntry: false })?.isFile())) return undefined;
  addBundle(fresh, side);
  headersOf.set(fresh, was);
  if (old.parentSession !== undefined) fresh.parentSession = old.parentSession;
  if (old.neededBy !== undefined) fresh.neededBy = old.neededBy;
  if (old.family !== undefined) fresh.family = old.family;
  return fresh;
}

/** One session: a thread's rollout and, as its bundle, its subagents' rollouts (and hidden siblings). */
function sessionRecord(
  store: StoreRef,
  owner: Rollout,
  subagents: readonly Rollout[],
  name: string | undefined,
  duplicate: boolean,
): SessionRecord {
  const { facts, identity } = owner;
  const warnings: SessionWarning[] = [];
  if (identity.size === 0) warnings.push({ code: "empty-file", message: "empty rollout" });
  else if (!facts.header)
    warnings.push({
      code: "missing-header",
      message: "no session_meta on its first line (Codex re-creates a rollout it lost without one)",
    });
  if (facts.header?.id !== undefined && facts.header.id.toLowerCase() !== owner.thread)
    warnings.push({
      code: "duplicate-id",
      message: `its header names thread ${facts.header.id}, its file name ${owner.thread}`,
    });
  if (duplicate)
    warnings.push({
      code: "duplicate-id",
      message: `thread ${owner.thread} has more than one rollout in this store; Codex opens only one`,
    });
  const all = [owner, ...subagents];
  const corrupt = all.reduce((n, r) => n + r.facts.corruptLines, 0);
  if (corrupt > 0)
    warnings.push({
      code: "corrupt-line",
      message: `${corrupt} line(s) are not JSON objects`,
      count: corrupt,
    });
  if (facts.truncatedLast)
    warnings.push({
      code: "truncated-last-line",
      message: "the last line has no newline (cut off, or Codex is writing it)",
    });
  if (facts.headerTooLong)
    warnings.push({
      code: "line-too-long",
      message: "its session_meta line is over 1 MiB: its fields are read from its first and last 64 KiB",
    });
  for (const rollout of all)
    if (rollout.facts.capped)
      warnings.push(
        readCapWarning(rollout.facts.capped, rollout === owner ? undefined : basename(rollout.path)),
      );

  const bundle = [
    ...(owner.hiddenSibling ? [owner.hiddenSibling] : []),
    ...subagents.flatMap((s) => [s.path, ...(s.hiddenSibling ? [s.hiddenSibling] : [])]),
  ];
  const fingerprint = withBundle(
    { dev: identity.dev, ino: identity.ino, size: identity.size, mtimeNs: identity.mtimeNs },
    bundle,
  );
  const modifiedAt = iso(Number(BigInt(fingerprint.mtimeNs) / 1_000_000n));
  const lastAt = all
    .map((r) => validTime(r.facts.lastAt))
    .filter((t): t is string => t !== undefined)
    .sort()
    .at(-1);
  const createdAt =
    validTime(facts.header?.timestamp) ?? validTime(facts.firstAt) ?? stampTime(owner.stamp) ?? modifiedAt;
  const sum = (pick: (f: RolloutFacts) => number) => all.reduce((n, r) => n + pick(r.facts), 0);
  return {
    id: `codex:${owner.thread}`,
    store,
    path: owner.path,
    namespace: facts.header?.cwd ?? "(unknown: no session_meta)",
    sizeBytes: fingerprint.size,
    createdAt,
    modifiedAt,
    // A rollout read to a cap may go on past its last time read: never before the files' time then.
    lastUsedAt: all.some((r) => r.facts.capped) ? laterOf(lastAt, modifiedAt) : (lastAt ?? modifiedAt),
    fingerprint,
    messageCount: sum((f) => f.lines),
    messageCounts: {
      user: sum((f) => f.counts.user),
      assistant: sum((f) => f.counts.assistant),
      toolResult: 0,
      other: sum((f) => f.counts.other),
    },
    ...(name ? { name } : {}),
    ...(facts.firstMessage ? { firstMessage: facts.firstMessage } : {}),
    ...(bundle.length > 0 ? { bundle } : {}),
    warnings,
  };
}

/** Follows `up` from `start` to the top of the chain; a cycle ends where it closes. */
function topOf<T>(start: T, up: (at: T) => T | undefined): T {
  const seen = new Set([start]);
  let at = start;
  for (let next = up(at); next && !seen.has(next); next = up(at)) {
    seen.add(next);
    at = next;
  }
  return at;
}
