// Claude Code's store (`$CLAUDE_CONFIG_DIR` or `~/.claude`): one session is a transcript
// `projects/<cwd folder>/<sessionId>.jsonl` and its bundle — the session's folder beside it
// (subagents, tool results, workflows…), its `<id>.dir-sync.json`, `file-history/<id>/`,
// `session-env/<id>/`, `tasks/<id>/`, `uploads/<id>/`, `image-cache/<id>/`, `debug/<id>.txt`,
// legacy `todos/<id>[-agent-*].json` and, from versions before 2.1.2, `agent-*.jsonl` siblings
// naming it — counted and moved together. Never part of a session: a project's reserved entries
// (`memory/`, `.session-aliases`, …), `history.jsonl`, `~/.claude.json`. Side files whose
// transcript is gone are an orphaned bundle, listed as an item of its own. A fork written as a
// pointer (`fork-context-ref`) reads its history from another session's file, which is kept while
// the fork exists; a `/branch` is a full copy and only records where it came from.
import { type BigIntStats, lstatSync, readdirSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import type { ScanProblem } from "../../../shared/scan-report.js";
import type { SessionRecord, SessionWarning, StoreRef } from "../../../shared/session-record.js";
import { addBundle, orphanedBundle } from "../bundle.js";
import { CLAUDE_SIDE_FOLDERS } from "../session-place.js";
import type { StoreScan } from "../adapter-types.js";
import { type ClaudeFacts, readClaudeTranscript } from "./transcript.js";
import { strayEntry } from "../stray-entry.js";
import { FactsCache } from "../facts-cache.js";
import { laterOf, readCapWarning } from "../read-caps.js";
import { type Placed, rebundle, rescanPlaced } from "../watched-rescan.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TRANSCRIPT = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/;
/** A subagent's transcript beside its parent's, as versions before 2.1.2 wrote it. */
const LEGACY_AGENT = /^agent-.+\.jsonl$/;
/** Left alone, never part of a session and never reported: Claude's own per-project entries. */
const PROJECT_OWN = new Set([
  "memory",
  ".session-aliases",
  "tiny_memory",
  "bagel",
  "cloud-snapshots",
  "bridge-pointer.json",
  "sessions-index.json",
]);

/** A transcript unchanged since the last scan is not read again (a server rescans every few seconds). */
const transcripts = new FactsCache<ClaudeFacts>(readClaudeTranscript);
const transcriptFacts = (path: string, stat?: BigIntStats) => transcripts.get(path, stat);

const names = (folder: string): string[] => {
  try {
    return readdirSync(folder).sort();
  } catch {
    return [];
  }
};

/** The session a name in one of Claude's side folders belongs to, if it is named after one. */
function sessionOfSideName(folder: string, name: string): string | undefined {
  if (folder === "debug")
    return name.endsWith(".txt") && UUID.test(name.slice(0, -4)) ? name.slice(0, -4) : undefined;
  if (folder === "todos") {
    const id = name.slice(0, 36);
    return UUID.test(id) &&
      (name === `${id}.json` || (name.startsWith(`${id}-agent-`) && name.endsWith(".json")))
      ? id
      : undefined;
  }
  return UUID.test(name) ? name : undefined;
}

/** Side files of each session id, outside `projects/`: where Claude Code keeps them. */
function sideFiles(root: string): Map<string, string[]> {
  const byId = new Map<string, string[]>();
  for (const folder of CLAUDE_SIDE_FOLDERS)
    for (const name of names(join(root, folder))) {
      const id = sessionOfSideName(folder, name);
      if (id) byId.set(id, [...(byId.get(id) ?? []), join(root, folder, name)]);
    }
  return byId;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Its last time inside; when the read stopped at a cap, the lines after may be later: never before its mtime. */
function lastUsed(facts: ClaudeFacts, modifiedAt: string): string {
  const last = facts.lastAt ? new Date(facts.lastAt).toISOString() : undefined;
  return facts.capped ? laterOf(last, modifiedAt) : (last ?? modifiedAt);
}

export function scanClaudeRoot(root: string): StoreScan {
  const store: StoreRef = { kind: "claude", root };
  const problems: ScanProblem[] = [];
  const records: SessionRecord[] = [];
  const side = sideFiles(root);
  /** Session id → its record, to join bundles and forks. */
  const byId = new Map<string, SessionRecord>();
  /** Parts of a bundle found in `projects/`: the session's folder, legacy `agent-*.jsonl`. */
  const projectParts = new Map<string, string[]>();
  const addPart = (id: string, path: string) => projectParts.set(id, [...(projectParts.get(id) ?? []), path]);

  const projects = join(root, "projects");
  for (const project of names(projects)) {
    const folder = join(projects, project);
    const stat = lstatSync(folder, { throwIfNoEntry: false });
    if (!stat?.isDirectory()) {
      if (stat) problems.push(strayEntry(stat, folder, "claude", "not a project folder"));
      continue;
    }
    for (const name of names(folder)) {
      if (PROJECT_OWN.has(name)) continue;
      const path = join(folder, name);
      // bigint: a transcript's stat tells the facts cache whether it changed, without a second lstat.
      const entry = lstatSync(path, { bigint: true, throwIfNoEntry: false });
      if (!entry) continue;
      const transcript = TRANSCRIPT.exec(name);
      if (entry.isSymbolicLink())
        problems.push({ code: "symlink", path, message: "symlink in a claude store; not followed" });
      else if (transcript && entry.isFile()) {
        const record = transcriptRecord(store, path, project, transcript[1]!, problems, entry);
        if (record) {
          records.push(record);
          byId.set(transcript[1]!, record);
        }
      } else if (entry.isDirectory() && UUID.test(name)) addPart(name, path);
      else if (entry.isFile() && name.endsWith(".dir-sync.json") && UUID.test(name.slice(0, 36)))
        addPart(name.slice(0, 36), path);
      else if (entry.isFile() && LEGACY_AGENT.test(name)) {
        // An older version's subagent transcript, beside its parent's: it names the parent inside.
        const parent = safeFacts(path)?.sessionId;
        if (parent && UUID.test(parent)) addPart(parent, path);
        else
          problems.push({
            code: "not-a-session",
            path,
            message: "a subagent transcript that names no session",
            bytes: Number(entry.size),
          });
      } else
        problems.push({
          code: entry.isFile() || entry.isDirectory() ? "not-a-session" : "not-regular",
          path,
          message: "not a Claude Code session file",
          ...(entry.isFile() ? { bytes: Number(entry.size) } : {}),
        });
    }
  }

  // The session's folder first (it names an orphan), then its other files in projects/, then the
  // side folders in their order.
  for (const [id, parts] of projectParts) {
    const ordered = [...parts].sort((a, b) => Number(basename(b) === id) - Number(basename(a) === id));
    side.set(id, [...ordered, ...(side.get(id) ?? [])]);
  }
  /** After `--continue` a transcript carries a newer id too: side files of that id are its own. */
  const continued = new Map<string, SessionRecord>();
  for (const record of records)
    for (const other of origins.get(record)?.otherSessionIds ?? [])
      if (!byId.has(other) && !continued.has(other)) continued.set(other, record);
  for (const [id, paths] of side) {
    const record = byId.get(id) ?? continued.get(id);
    if (record) addBundle(record, paths);
    else {
      const orphan = orphanedBundle(store, `claude-orphan:${id}`, "(orphaned Claude Code side files)", paths);
      if (orphan) records.push(orphan);
    }
  }
  // Lineage: a branch names where it was copied from; a fork pointer makes its parent needed.
  for (const record of records) {
    const { readsFrom, branchedFrom } = origins.get(record) ?? {};
    const reads = readsFrom ? byId.get(readsFrom) : undefined;
    const parent = reads ?? (branchedFrom ? byId.get(branchedFrom) : undefined);
    if (!parent || parent === record) continue;
    record.parentSession = parent.path;
    if (parent === reads) (parent.neededBy ??= []).push(record.id);
  }
  transcripts.forgetUnasked(root);
  return { records, problems };
}

/**
 * The scan of a store a watcher saw `changed` (paths under `root`) in since `previous`, its last
 * scan: while Claude Code works it appends to a transcript, to the session's folder and to its
 * `debug/<id>.txt`, and writes `history.jsonl` and its settings — a full scan of 20,000 sessions
 * for each of those was 1.3 s. Here only the sessions those paths belong to are measured again;
 * paths no scan reads are passed over. Undefined when a change is not of a session already known
 * whose parts are all still there with the same origins (a session came or went, a part came or
 * went, a fork or continuation appeared, a folder's entries changed): the caller scans the store.
 */
export function rescanClaudeChanged(
  root: string,
  previous: StoreScan,
  changed: Iterable<string>,
): StoreScan | undefined {
  const place = (path: string): Placed => {
    const steps = relative(root, path).split(sep);
    const top = steps[0]!;
    if (top === "" || top === "..") return undefined; // the root itself, or not in it
    const inProjects = top === "projects";
    if (!inProjects && !CLAUDE_SIDE_FOLDERS.includes(top)) return "unread"; // history.jsonl, settings…
    // A session's part is projects/<project>/<name> or <side folder>/<name>; above it, entries came or went.
    const depth = inProjects ? 3 : 2;
    if (steps.length < depth) return undefined;
    // A name in a side folder that is no session's (`debug/latest`, say): no scan reads it.
    if (!inProjects && sessionOfSideName(top, steps[1]!) === undefined) return "unread";
    if (inProjects && PROJECT_OWN.has(steps[2]!)) return "unread";
    // An older version's subagent file belongs to the session its first line names: a rewrite may move it.
    if (inProjects && LEGACY_AGENT.test(steps[2]!)) return undefined;
    return join(root, ...steps.slice(0, depth));
  };
  return rescanPlaced(previous, changed, place, (old) =>
    old.id.startsWith("claude:") ? remeasured(root, old) : undefined,
  );
}

/** `old`'s record made again from its files now, if it is the same session with the same parts. */
function remeasured(root: string, old: SessionRecord): SessionRecord | undefined {
  if (!lstatSync(old.path, { throwIfNoEntry: false })?.isFile()) return undefined;
  const [project, name] = relative(join(root, "projects"), old.path).split(sep);
  const unread: ScanProblem[] = [];
  const fresh = transcriptRecord(old.store, old.path, project!, name!.slice(0, -".jsonl".length), unread);
  if (!fresh || unread.length > 0) return undefined;
  // Where it reads from or continued as decides lineage and side files across the store.
  const was = origins.get(old);
  const now = origins.get(fresh);
  if (
    was?.readsFrom !== now?.readsFrom ||
    was?.branchedFrom !== now?.branchedFrom ||
    (was?.otherSessionIds ?? []).join() !== (now?.otherSessionIds ?? []).join()
  )
    return undefined;
  const parts = old.bundle ?? [];
  if (!rebundle(fresh, parts, (part) => claudePartKind(root, part))) return undefined;
  if (old.parentSession !== undefined) fresh.parentSession = old.parentSession;
  if (old.neededBy !== undefined) fresh.neededBy = old.neededBy;
  return fresh;
}

/** What a scan takes a part in `projects/` as: a session's folder, or its `.dir-sync.json` (side folders' parts: either). */
function claudePartKind(root: string, part: string): "file" | "folder" | undefined {
  const steps = relative(join(root, "projects"), part).split(sep);
  if (steps.length !== 2 || steps[0] === "..") return undefined;
  if (UUID.test(steps[1]!)) return "folder";
  return steps[1]!.endsWith(".dir-sync.json") ? "file" : undefined;
}

/** The sessions each record came from or continued as, kept beside the records until they are linked. */
const origins = new WeakMap<
  SessionRecord,
  Pick<ClaudeFacts, "readsFrom" | "branchedFrom" | "otherSessionIds">
>();

function safeFacts(path: string): ClaudeFacts | undefined {
  try {
    return transcriptFacts(path).facts;
  } catch {
    return undefined;
  }
}

function transcriptRecord(
  store: StoreRef,
  path: string,
  project: string,
  id: string,
  problems: ScanProblem[],
  stat?: BigIntStats,
): SessionRecord | undefined {
  let read;
  try {
    read = transcriptFacts(path, stat);
  } catch (error) {
    problems.push({ code: "unreadable", path, message: (error as Error).message });
    return undefined;
  }
  const { facts, identity } = read;
  const warnings: SessionWarning[] = [];
  if (identity.size === 0) warnings.push({ code: "empty-file", message: "empty transcript" });
  if (facts.corruptLines > 0)
    warnings.push({
      code: "corrupt-line",
      message: `${facts.corruptLines} line(s) are not JSON objects`,
      count: facts.corruptLines,
    });
  if (facts.longLines > 0)
    warnings.push({
      code: "line-too-long",
      message: `${facts.longLines} line(s) too long to parse; counted only`,
      count: facts.longLines,
    });
  if (facts.capped) warnings.push(readCapWarning(facts.capped));
  if (facts.sessionId !== undefined && facts.sessionId !== id)
    warnings.push({
      code: "duplicate-id",
      message: `its lines name session ${facts.sessionId}, its file name ${id}`,
    });
  const namespace = facts.cwd ?? `(unknown: ${project})`;
  if (facts.cwd === undefined)
    warnings.push({
      code: "namespace-from-folder",
      message: `no line carries a cwd: the folder name "${project}" is all there is (Claude's folder names are lossy)`,
    });
  const modifiedAt = iso(identity.mtimeMs);
  const record: SessionRecord = {
    id: `claude:${id}`,
    store,
    path,
    namespace,
    sizeBytes: identity.size,
    createdAt: facts.firstAt ? new Date(facts.firstAt).toISOString() : modifiedAt,
    modifiedAt,
    // What the user last did, from the transcript: its mtime is what Claude's own sweep looks at,
    // and refreshing it to keep a session from that sweep must not make it look recently used. A
    // transcript read to a cap may go on past its last time read: never older than its mtime then.
    lastUsedAt: lastUsed(facts, modifiedAt),
    fingerprint: { dev: identity.dev, ino: identity.ino, size: identity.size, mtimeNs: identity.mtimeNs },
    messageCount: facts.lines,
    messageCounts: {
      user: facts.counts.user,
      assistant: facts.counts.assistant,
      toolResult: 0,
      other: facts.counts.other,
    },
    ...(facts.title ? { name: facts.title } : {}),
    ...(facts.firstMessage ? { firstMessage: facts.firstMessage } : {}),
    warnings,
  };
  if (facts.readsFrom || facts.branchedFrom || facts.otherSessionIds) origins.set(record, facts);
  return record;
}
