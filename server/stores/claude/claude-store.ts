// Claude Code's store (`$CLAUDE_CONFIG_DIR` or `~/.claude`), as 2.1.332 writes it: one session is a
// transcript `projects/<cwd folder>/<sessionId>.jsonl` and its bundle — the session's folder beside
// it (subagents, tool results, workflows, its archive state and title, recordings…), its siblings
// `<id>.dir-sync.json`, `.ccr-tip.json`, `.precompact.json`, `.desktop-released.json` and older
// `<id>-<stamp>.cast` recordings, `file-history/<id>/`, `session-env/<id>/`, `tasks/<id>/`,
// `uploads/<id>/`, `image-cache/<id>/`, `debug/<id>.txt`, legacy `todos/<id>[-agent-*].json`, its
// background job `jobs/<first 8 characters of id>/`, its temp folder outside the store
// (`<temp>/claude-<uid>/<cwd folder>/<id>/`) and, from versions before 2.1.2, `agent-*.jsonl`
// siblings naming it — counted and moved together. Never part of a session: a project's reserved
// entries (`memory/`, `.session-aliases`, …), files Claude is writing under a temporary name,
// `history.jsonl`, `~/.claude.json`. Side files whose transcript is gone are an orphaned bundle,
// listed as an item of its own; so is a transcript `/cd` set aside. A fork written as a pointer
// (`fork-context-ref`) reads its history from another session's file, which is kept while the fork
// exists; a `/branch` or `--fork-session` is a full copy and only records where it came from.
import { type BigIntStats, lstatSync, readdirSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import type { ScanProblem } from "../../../shared/scan-report.js";
import type { SessionRecord, SessionWarning, StoreRef } from "../../../shared/session-record.js";
import { addBundle, measurePart, orphanedBundle, type PartFacts } from "../bundle.js";
import type { StoreScan } from "../adapter-types.js";
import { type ClaudeFacts, readClaudeTranscript } from "./transcript.js";
import { strayEntry } from "../stray-entry.js";
import { FactsCache } from "../facts-cache.js";
import { laterOf, readCapWarning } from "../read-caps.js";
import { type Placed, rebundle, rescanPlaced } from "../watched-rescan.js";
import { readSmallTextFile } from "../../fs/read-small-file.js";
import { CLAUDE_JOBS, CLAUDE_SIDE_FOLDERS, claudeTempRoot } from "./location.js";

const ID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const UUID = new RegExp(`^${ID}$`);
const TRANSCRIPT = new RegExp(`^(${ID})\\.jsonl$`);
/** A file beside a transcript, named after its session: a part of it. */
const SIBLING = new RegExp(
  `^(${ID})(?:\\.(?:dir-sync|ccr-tip|precompact|desktop-released)\\.json|-\\d{1,16}\\.cast)$`,
);
/**
 * A transcript `/cd` found in its way when it moved a session into this project folder, set aside
 * (or, rarely, the session's folder): `<id>.jsonl.superseded-<ms>`, `<id>.superseded-<ms>`.
 */
const SET_ASIDE = new RegExp(`^(${ID})(?:\\.jsonl)?\\.superseded-\\d+$`);
/**
 * A file Claude is writing under a temporary name, to rename over the real one: a rewritten
 * transcript (`<id>.jsonl.compact.tmp.<hex>`), a sibling or a project file (`….json.tmp.<…>`).
 * Never a session; Claude's own sweep removes one a crash left.
 */
const IN_FLIGHT = new RegExp(
  `^(?:${ID}\\.(?:jsonl\\.compact|[a-z-]+\\.json)|bridge-pointer\\.json|\\.[a-z-]+\\.json)\\.tmp`,
);
/** A subagent's transcript beside its parent's, as versions before 2.1.2 wrote it. */
const LEGACY_AGENT = /^agent-.+\.jsonl$/;
/** A background job's folder in `jobs/`: the first 8 characters of its session's id. */
const JOB = /^[0-9a-f]{8}$/;
/**
 * Left alone, never part of a session and never reported: Claude's own per-project entries (the
 * names 2.1.332 reserves, and the older `sessions-index.json`).
 */
const PROJECT_OWN = new Set([
  "memory",
  "tiny_memory",
  "bagel",
  "cloud-snapshots",
  "connector-downloads",
  "bridge-pointer.json",
  ".session-aliases",
  ".dir-sync.json",
  ".dir-sync-empty.json",
  ".cloud-worktrees.json",
  "sessions-index.json",
]);
/** Never a session, never reported, never read by a scan: Claude's own entries, and files it is writing. */
const passedOver = (name: string) => PROJECT_OWN.has(name) || IN_FLIGHT.test(name);

/** A transcript unchanged since the last scan is not read again (a server rescans every few seconds). */
const transcripts = new FactsCache<ClaudeFacts>("claude-transcript@1", readClaudeTranscript);
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
  for (const folder of CLAUDE_SIDE_FOLDERS) {
    const dir = join(root, folder);
    for (const name of names(dir)) {
      const id = sessionOfSideName(folder, name);
      if (!id) continue;
      const paths = byId.get(id);
      if (paths) paths.push(`${dir}/${name}`);
      else byId.set(id, [`${dir}/${name}`]);
    }
  }
  return byId;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Its last time inside; when the read stopped at a cap, the lines after may be later: never before its mtime. */
function lastUsed(facts: ClaudeFacts, modifiedAt: string): string {
  const last = facts.lastAt ? new Date(facts.lastAt).toISOString() : undefined;
  return facts.capped ? laterOf(last, modifiedAt) : (last ?? modifiedAt);
}

/** How a scan finds Claude Code's temp root (tests name their own; see `claudeTempRoot`). */
export interface ClaudeScanOptions {
  /** The environment naming the temp folder: `$CLAUDE_CODE_TMPDIR`, `$TMPDIR`… Default: this process's. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The sessions' folders in Claude Code's temp root, by project folder: `<root>/<folder>/<id>/`.
 * Only where the temp root is on the store's file system: a part moves by one rename, and a temp
 * folder on another file system (a tmpfs `/tmp`) would keep every session that has one from moving
 * at all. Claude removes it with the transcript, and the system with the next boot.
 */
function tempFolders(
  root: string,
  env: NodeJS.ProcessEnv,
): (folder: string, id: string) => string | undefined {
  const temp = claudeTempRoot(env, root);
  const device = temp && lstatSync(join(root, "projects"), { throwIfNoEntry: false })?.dev;
  if (temp === undefined || device === undefined || lstatSync(temp).dev !== device) return () => undefined;
  const found = new Map<string, Set<string>>();
  return (folder, id) => {
    let ids = found.get(folder);
    if (!ids) {
      const path = join(temp, folder);
      const stat = lstatSync(path, { throwIfNoEntry: false });
      ids = new Set(stat?.isDirectory() && stat.dev === device ? names(path) : []);
      found.set(folder, ids);
    }
    if (!ids.has(id)) return undefined;
    const part = join(temp, folder, id);
    const stat = lstatSync(part, { throwIfNoEntry: false });
    return stat?.isDirectory() && stat.dev === device ? part : undefined;
  };
}

/**
 * Background jobs (`claude --bg`) by the session they belong to: `jobs/<first 8 characters>/`, the
 * job of the one session whose id starts so. A job whose characters begin two sessions' ids is
 * neither's (reported, left alone); one of no session is Claude's to tidy (a job starting, a spare).
 */
function jobFolders(
  root: string,
  sessions: ReadonlyMap<string, SessionRecord>,
  problems: ScanProblem[],
): Map<SessionRecord, string[]> {
  const jobs = join(root, CLAUDE_JOBS);
  const byJob = new Map<string, Set<SessionRecord>>();
  for (const [id, record] of sessions) {
    const owners = byJob.get(id.slice(0, 8)) ?? new Set();
    byJob.set(id.slice(0, 8), owners.add(record));
  }
  const found = new Map<SessionRecord, string[]>();
  for (const name of names(jobs)) {
    const owners = byJob.get(name);
    const path = join(jobs, name);
    if (!JOB.test(name) || !owners || !lstatSync(path, { throwIfNoEntry: false })?.isDirectory()) continue;
    const [owner] = owners;
    if (owners.size === 1) found.set(owner!, [...(found.get(owner!) ?? []), path]);
    else
      problems.push({
        code: "not-a-session",
        path,
        message: `a background job's folder named by the first 8 characters of ${owners.size} sessions' ids; left with none of them`,
      });
  }
  return found;
}

export function scanClaudeRoot(root: string, options: ClaudeScanOptions = {}): StoreScan {
  const store: StoreRef = { kind: "claude", root };
  const problems: ScanProblem[] = [];
  const records: SessionRecord[] = [];
  const side = sideFiles(root);
  /** Session id → its record, to join bundles and forks. */
  const byId = new Map<string, SessionRecord>();
  /** Parts of a bundle found in `projects/`: the session's folder, its siblings, legacy `agent-*.jsonl`. */
  const projectParts = new Map<string, string[]>();
  const addPart = (id: string, path: string) => {
    const parts = projectParts.get(id);
    if (parts) parts.push(path);
    else projectParts.set(id, [path]);
  };
  /** The parts in `projects/` measured as they were listed (an lstat each, not two). */
  const measured = new Map<string, PartFacts>();
  /** The names directly in each session's folder. */
  const folderNames = new Map<string, readonly string[]>();
  /** What `/cd` set aside, to list once every session is known. */
  const setAside: Array<{ path: string; folder: string }> = [];

  const projects = join(root, "projects");
  for (const project of names(projects)) {
    // Paths made by hand below `projects` (normal already; a listed name has no slash): `join`
    // normalises each one, and there are as many as entries in the store.
    const folder = `${projects}/${project}`;
    const stat = lstatSync(folder, { throwIfNoEntry: false });
    if (!stat?.isDirectory()) {
      if (stat) problems.push(strayEntry(stat, folder, "claude", "not a project folder"));
      continue;
    }
    const entries = names(folder);
    for (const name of entries) {
      if (passedOver(name)) continue;
      const path = `${folder}/${name}`;
      // bigint: a transcript's stat tells the facts cache whether it changed, without a second lstat.
      const entry = lstatSync(path, { bigint: true, throwIfNoEntry: false });
      if (!entry) continue;
      const transcript = TRANSCRIPT.exec(name);
      const sibling = SIBLING.exec(name);
      if (entry.isSymbolicLink())
        problems.push({ code: "symlink", path, message: "symlink in a claude store; not followed" });
      else if (transcript && entry.isFile()) {
        const id = transcript[1]!;
        // Its folder sorts before it (`<id>` < `<id>.jsonl`): measured already, its names known.
        const inFolder = folderNames.get(`${folder}/${id}`) ?? [];
        const record = transcriptRecord(store, path, project, id, problems, entry, inFolder);
        if (record) {
          records.push(record);
          byId.set(id, record);
        }
      } else if (entry.isDirectory() && UUID.test(name)) {
        // Measured now, with the lstat just made; its names say which of its files to read.
        const part = measurePart(path, entry, (inside) => folderNames.set(path, inside));
        if (part) measured.set(path, part);
        addPart(name, path);
      } else if (entry.isFile() && sibling) {
        measured.set(path, measurePart(path, entry)!);
        addPart(sibling[1]!, path);
      } else if ((entry.isFile() || entry.isDirectory()) && SET_ASIDE.test(name))
        setAside.push({ path, folder: project });
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
  const jobs = jobFolders(root, new Map([...byId, ...continued]), problems);
  const temp = tempFolders(root, options.env ?? process.env);
  for (const [id, paths] of side) {
    const record = byId.get(id) ?? continued.get(id);
    if (record) addBundle(record, paths, measured);
    else {
      const orphan = orphanedBundle(
        store,
        `claude-orphan:${id}`,
        "(orphaned Claude Code side files)",
        paths,
        measured,
      );
      if (orphan) records.push(orphan);
    }
  }
  // Outside projects/ and the side folders, after them: its background job, its temp folder.
  for (const [id, record] of byId) {
    const tempFolder = temp(basename(dirname(record.path)), id);
    addBundle(record, [...(jobs.get(record) ?? []), ...(tempFolder ? [tempFolder] : [])]);
  }
  for (const { path, folder } of setAside) {
    const item = setAsideRecord(store, path, folder);
    if (item) records.push(item);
  }
  // Lineage: a branch or a copy names where it came from; a fork pointer makes its parent needed.
  // A copy names the session that wrote what it copied: a continued transcript's newer id is its own.
  const copied = (from: string | undefined) =>
    from === undefined ? undefined : (byId.get(from) ?? continued.get(from));
  for (const record of records) {
    const { readsFrom, branchedFrom, copiedFrom } = origins.get(record) ?? {};
    const reads = readsFrom ? byId.get(readsFrom) : undefined;
    const parent = reads ?? copied(branchedFrom) ?? copied(copiedFrom);
    if (!parent || parent === record) continue;
    record.parentSession = parent.path;
    if (parent === reads) (parent.neededBy ??= []).push(record.id);
  }
  transcripts.forgetUnasked(root);
  return { records, problems };
}

/** Where set-aside transcripts are counted: apart from the projects' sessions, as orphans are. */
export const SET_ASIDE_NAMESPACE = "(set aside by Claude Code relocations)";

/**
 * What `/cd` set aside: one item, named for what it is and the project it was set aside in (its
 * transcript's, or for a folder or one we cannot read, the folder's name). Claude never reads it
 * again, and refreshes its time when it sets it aside: in a namespace of its own, it never stands
 * for the latest session of its project.
 */
function setAsideRecord(store: StoreRef, path: string, folder: string): SessionRecord | undefined {
  const facts = lstatSync(path).isFile() ? safeFacts(path) : undefined;
  const project = facts?.relocatedCwd ?? facts?.cwd ?? folder;
  const item = orphanedBundle(store, `claude-set-aside:${folder}/${basename(path)}`, SET_ASIDE_NAMESPACE, [
    path,
  ]);
  return item && { ...item, name: `Set aside by a Claude Code relocation into ${project}` };
}

/**
 * The scan of a store a watcher saw `changed` (paths under `root`) in since `previous`, its last
 * scan: while Claude Code works it appends to a transcript, to the session's folder and to its
 * `debug/<id>.txt`, and writes `history.jsonl` and its settings — a full scan of 20,000 sessions
 * for each of those was 1.3 s. Here only the sessions those paths belong to are measured again;
 * paths no scan reads are passed over. Undefined when a change is not of a session already known
 * whose parts are all still there with the same origins (a session came or went — or moved to
 * another project folder —, a part came or went, a fork or continuation appeared, a folder's
 * entries changed): the caller scans the store. A session's temp folder is outside the store, and no
 * watcher's: a full scan measures it again.
 */
export function rescanClaudeChanged(
  root: string,
  previous: StoreScan,
  changed: Iterable<string>,
): StoreScan | undefined {
  /** The first 8 characters of every session's ids: which `jobs/` folders may become a part. */
  const jobNames = new Set(
    previous.records.flatMap((r) =>
      r.id.startsWith("claude:")
        ? [r.id.slice(7), ...(origins.get(r)?.otherSessionIds ?? [])].map((id) => id.slice(0, 8))
        : [],
    ),
  );
  const place = (path: string, owned: (part: string) => boolean): Placed => {
    const steps = relative(root, path).split(sep);
    const top = steps[0]!;
    if (top === "" || top === "..") return undefined; // the root itself, or not in it
    const inProjects = top === "projects";
    if (top === CLAUDE_JOBS) {
      // A job's folder is a part only of a session its name begins; pins.json and the like are Claude's.
      if (steps.length < 2) return undefined;
      const job = join(root, top, steps[1]!);
      if (owned(job)) return job;
      return JOB.test(steps[1]!) && jobNames.has(steps[1]!) ? undefined : "unread";
    }
    if (!inProjects && !CLAUDE_SIDE_FOLDERS.includes(top)) return "unread"; // history.jsonl, settings…
    // A session's part is projects/<project>/<name> or <side folder>/<name>; above it, entries came or went.
    const depth = inProjects ? 3 : 2;
    if (steps.length < depth) return undefined;
    // A name in a side folder that is no session's (`debug/latest`, say): no scan reads it.
    if (!inProjects && sessionOfSideName(top, steps[1]!) === undefined) return "unread";
    if (inProjects && passedOver(steps[2]!)) return "unread";
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
  const id = name!.slice(0, -".jsonl".length);
  const withFolder = lstatSync(join(dirname(old.path), id), { throwIfNoEntry: false }) !== undefined;
  const fresh = transcriptRecord(
    old.store,
    old.path,
    project!,
    id,
    unread,
    undefined,
    withFolder ? undefined : [],
  );
  if (!fresh || unread.length > 0) return undefined;
  // Where it reads from, was copied from or continued as decides lineage and side files across the store.
  const was = origins.get(old);
  const now = origins.get(fresh);
  if (
    was?.readsFrom !== now?.readsFrom ||
    was?.branchedFrom !== now?.branchedFrom ||
    was?.copiedFrom !== now?.copiedFrom ||
    (was?.otherSessionIds ?? []).join() !== (now?.otherSessionIds ?? []).join()
  )
    return undefined;
  const parts = old.bundle ?? [];
  if (!rebundle(fresh, parts, (part) => claudePartKind(root, part))) return undefined;
  if (old.parentSession !== undefined) fresh.parentSession = old.parentSession;
  if (old.neededBy !== undefined) fresh.neededBy = old.neededBy;
  return fresh;
}

/**
 * What a scan takes a part as: a session's folder, a background job's or a temp folder; a sibling
 * file of its transcript (a side folder's part: either).
 */
function claudePartKind(root: string, part: string): "file" | "folder" | undefined {
  const steps = relative(root, part).split(sep);
  if (steps[0] === "..") return "folder"; // its temp folder
  if (steps[0] === CLAUDE_JOBS) return "folder";
  if (steps[0] !== "projects" || steps.length !== 3) return undefined;
  if (UUID.test(steps[2]!)) return "folder";
  return SIBLING.test(steps[2]!) ? "file" : undefined;
}

/** The sessions each record came from or continued as, kept beside the records until they are linked. */
const origins = new WeakMap<
  SessionRecord,
  Pick<ClaudeFacts, "readsFrom" | "branchedFrom" | "copiedFrom" | "otherSessionIds">
>();

function safeFacts(path: string): ClaudeFacts | undefined {
  try {
    return transcriptFacts(path).facts;
  } catch {
    return undefined;
  }
}

/** A small JSON object Claude keeps in a session's folder, if it is one; never through a link. */
function sessionFile(path: string, maxBytes: number): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(
      readSmallTextFile(path, { maxBytes, what: "Claude Code session file", noFollow: true }),
    );
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined; // none (most sessions), or not one Claude would read either
  }
}

/**
 * What the session's folder beside its transcript says of it, read as Claude reads it: its title
 * (`custom-title.json`, `customTitle`), and since when it is archived (`archived.json`, `{archived,
 * at}`) — no longer once the user typed a prompt after that.
 */
function sessionFolderFacts(
  folder: string,
  facts: ClaudeFacts,
  names: readonly string[] | undefined,
): { title?: string; archivedAt?: string } {
  const found: { title?: string; archivedAt?: string } = {};
  // Only the files its listing has (most sessions have neither): a failed open costs an error.
  const has = (name: string) => names === undefined || names.includes(name);
  const title = has("custom-title.json")
    ? sessionFile(join(folder, "custom-title.json"), 64 * 1024)?.customTitle
    : undefined;
  if (typeof title === "string" && title.trim() !== "") found.title = title.trim();
  const archive = has("archived.json") ? sessionFile(join(folder, "archived.json"), 4096) : undefined;
  const at = typeof archive?.at === "string" ? Date.parse(archive.at) : Number.NaN;
  if (archive?.archived === true && !Number.isNaN(at) && !((facts.lastTypedAt ?? -Infinity) > at))
    found.archivedAt = iso(at);
  return found;
}

function transcriptRecord(
  store: StoreRef,
  path: string,
  project: string,
  id: string,
  problems: ScanProblem[],
  stat?: BigIntStats,
  /**
   * The names in the session's folder beside its transcript (none: no folder), or undefined when
   * not listed (each file is tried).
   */
  inFolder?: readonly string[],
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
  // Lines naming only another session (a transcript copied or renamed by hand; Claude's own copies
  // are written under the new id) are one session's conversation in two files.
  if (facts.sessionId !== undefined && facts.sessionId !== id && !facts.otherSessionIds?.includes(id))
    warnings.push({
      code: "duplicate-id",
      message: `its lines name session ${facts.sessionId}, its file name ${id}`,
    });
  // Where `/cd` last moved it, else where it began: the folder name is only a lossy last resort.
  const cwd = facts.relocatedCwd ?? facts.cwd;
  const namespace = cwd ?? `(unknown: ${project})`;
  if (cwd === undefined)
    warnings.push({
      code: "namespace-from-folder",
      message: `no line carries a cwd: the folder name "${project}" is all there is (Claude's folder names are lossy)`,
    });
  const folder = inFolder?.length === 0 ? {} : sessionFolderFacts(join(dirname(path), id), facts, inFolder);
  // Titled as Claude's session list titles it: a rename, else Claude's own title, else the last
  // prompt (a record of its own, shown before the first message), else a summary.
  const name =
    facts.customTitle ??
    folder.title ??
    facts.aiTitle ??
    (facts.lastPrompt === undefined ? facts.summary : undefined);
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
    ...(name ? { name } : {}),
    ...(facts.firstMessage ? { firstMessage: facts.firstMessage } : {}),
    // The same as the first message says nothing more (most sessions have one prompt).
    ...(facts.lastPrompt && facts.lastPrompt !== facts.firstMessage ? { lastPrompt: facts.lastPrompt } : {}),
    ...(folder.archivedAt ? { archivedAt: folder.archivedAt } : {}),
    warnings,
  };
  const copiedFrom =
    facts.copiedFrom !== undefined && facts.copiedFrom !== id && UUID.test(facts.copiedFrom)
      ? facts.copiedFrom
      : undefined;
  if (facts.readsFrom || facts.branchedFrom || facts.otherSessionIds || copiedFrom)
    origins.set(record, {
      readsFrom: facts.readsFrom,
      branchedFrom: facts.branchedFrom,
      otherSessionIds: facts.otherSessionIds,
      copiedFrom,
    });
  return record;
}
