// Gemini CLI's store (`$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`): each project Gemini was started
// in has a folder `tmp/<folder>/` — a slug of the project's name (`shop`, `shop-1` on a collision)
// or, from installs before slugs, the sha256 of its path. One session there is a chat
// `chats/session-<time>-<8 chars of its id>.jsonl` (or a legacy `.json`; when Gemini converted one,
// both, which its own deletion removes together) and its bundle — what Gemini's own deletion
// removes with it (packages/core/src/utils/sessionOperations.ts): its subagents' chats
// `chats/<id>/`, its activity log `logs/session-<id>.jsonl`, its saved tool outputs
// `tool-outputs/session-<id>/`, its folder `<id>/` (plans, tracker, tasks), the same three for each
// of its subagents, and the backups Gemini kept beside the chat (`<chat>.unreadable-<time>`).
// Never part of a session: `projects.json`, `.project_root`, `logs.json`, checkpoints, memory,
// shell history, `history/`, settings. Side files whose chat is gone are an orphaned bundle,
// listed as an item of its own. A chat does not name its project's folder: that comes from
// Gemini's project index (projects.ts).
import { lstatSync, readdirSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import type { ScanProblem } from "../../../shared/scan-report.js";
import type { SessionRecord, SessionWarning, StoreRef } from "../../../shared/session-record.js";
import type { FileIdentity } from "../../fs/file-identity.js";
import { addBundle, orphanedBundle } from "../bundle.js";
import { pathDerivedId } from "../pi/pi-record.js";
import type { StoreScan } from "../adapter-types.js";
import { type GeminiChatFacts, geminiChats, readGeminiChat } from "./chat.js";
import { GEMINI_PROJECTS, safeSessionId } from "./location.js";
import { type GeminiProjects, HASH_FOLDER, readGeminiProjects } from "./projects.js";
import { type Placed, rebundle, rescanPlaced } from "../watched-rescan.js";
import { laterOf, readCapWarning } from "../read-caps.js";

/** A chat as Gemini lists them: `session-…` ending in `.json` or `.jsonl`. */
export const CHAT_FILE = /^session-.+\.jsonl?$/;
/** What Gemini leaves beside a chat: an unreadable file it set aside, a rewrite cut short. */
const CHAT_BACKUP = /^(session-.+\.jsonl?)\.(?:unreadable-\d+|tmp-\d+)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * Folders of a project that are never a session's own, whatever a chat claims its id is: the ones
 * Gemini reserves (case-insensitively) and its per-project folders.
 */
const PROJECT_OWN = new Set([
  "chats",
  "logs",
  "tool-outputs",
  "checkpoints",
  "memory",
  "plans",
  "tracker",
  "tasks",
]);

const names = (folder: string): string[] => {
  try {
    return readdirSync(folder).sort();
  } catch {
    return [];
  }
};

const iso = (ms: number) => new Date(ms).toISOString();

/** What a project folder holds per session id, found by listing it once. */
interface SideParts {
  /** `chats/<id>/`: the session's subagents. */
  subagents: Map<string, string>;
  /** `logs/session-<id>.jsonl`. */
  logs: Map<string, string>;
  /** `tool-outputs/session-<id>/`. */
  toolOutputs: Map<string, string>;
  /** `<id>/`. */
  own: Map<string, string>;
  /** Chat file name → what Gemini set aside beside it. */
  backups: Map<string, string[]>;
}

/** The entries of `folder` named by `pattern` (its first group is the id) and of the right type. */
function byId(folder: string, pattern: RegExp, want: "file" | "folder"): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of names(folder)) {
    const id = pattern.exec(name)?.[1];
    if (id === undefined) continue;
    const stat = lstatSync(join(folder, name), { throwIfNoEntry: false });
    if (want === "file" ? stat?.isFile() : stat?.isDirectory()) found.set(id, join(folder, name));
  }
  return found;
}

/** Takes a part out of its map: each part belongs to one session only. */
function take(parts: Map<string, string>, id: string): string[] {
  const path = parts.get(id);
  if (path === undefined) return [];
  parts.delete(id);
  return [path];
}

/**
 * What Gemini deletes with session `id` (its subagents' files with it): the subagents folder, the
 * activity log, the tool outputs and the session's own folder, each that is there.
 */
function artifactsOf(id: string, side: SideParts, withSubagents = true): string[] {
  const safe = safeSessionId(id);
  const subagents = take(side.subagents, safe);
  const parts = [
    ...subagents,
    ...take(side.toolOutputs, safe),
    ...(PROJECT_OWN.has(safe.toLowerCase()) ? [] : take(side.own, safe)),
    ...take(side.logs, safe),
  ];
  if (withSubagents)
    for (const folder of subagents)
      for (const name of names(folder))
        if (/\.jsonl?$/.test(name)) parts.push(...artifactsOf(name.replace(/\.jsonl?$/, ""), side, false));
  return parts;
}

export function scanGeminiRoot(root: string): StoreScan {
  const store: StoreRef = { kind: "gemini", root };
  const problems: ScanProblem[] = [];
  const records: SessionRecord[] = [];
  const projects = readGeminiProjects(root);
  const tmp = join(root, GEMINI_PROJECTS);
  for (const name of names(tmp)) {
    const folder = join(tmp, name);
    const stat = lstatSync(folder, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink())
      problems.push({
        code: "symlink",
        path: folder,
        message: "symlink in a Gemini CLI store; not followed",
      });
    else if (stat?.isDirectory()) scanProject(store, folder, name, projects, records, problems);
  }
  geminiChats.forgetUnasked(root);
  return { records, problems };
}

function scanProject(
  store: StoreRef,
  folder: string,
  name: string,
  projects: GeminiProjects,
  records: SessionRecord[],
  problems: ScanProblem[],
) {
  const chats = join(folder, "chats");
  /** Chats by name without extension: a legacy `.json` and the `.jsonl` Gemini converted it to are one. */
  const units = new Map<string, { jsonl?: string; json?: string }>();
  const side: SideParts = {
    subagents: new Map(),
    logs: byId(join(folder, "logs"), /^session-(.+)\.jsonl$/, "file"),
    toolOutputs: byId(join(folder, "tool-outputs"), /^session-(.+)$/, "folder"),
    own: byId(folder, /^([^.].*)$/, "folder"),
    backups: new Map(),
  };
  for (const entry of names(chats)) {
    const path = join(chats, entry);
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (!stat) continue;
    const backupOf = CHAT_BACKUP.exec(entry)?.[1];
    if (stat.isSymbolicLink())
      problems.push({ code: "symlink", path, message: "symlink in a Gemini CLI store; not followed" });
    else if (stat.isFile() && CHAT_FILE.test(entry)) {
      const json = entry.endsWith(".json");
      const stem = entry.slice(0, json ? -".json".length : -".jsonl".length);
      units.set(stem, { ...units.get(stem), [json ? "json" : "jsonl"]: path });
    } else if (stat.isFile() && backupOf !== undefined)
      side.backups.set(backupOf, [...(side.backups.get(backupOf) ?? []), path]);
    else if (stat.isDirectory()) side.subagents.set(entry, path);
    else
      problems.push({
        code: stat.isFile() || stat.isDirectory() ? "not-a-session" : "not-regular",
        path,
        message: "not a Gemini CLI chat",
        ...(stat.isFile() ? { bytes: stat.size } : {}),
      });
  }

  const project = projects.projectOf(name);
  const namespace = project?.path ?? `(unknown: ${name})`;
  const backupsOf = (path: string | undefined) => {
    if (path === undefined) return [];
    const file = path.slice(chats.length + 1);
    const found = side.backups.get(file) ?? [];
    side.backups.delete(file);
    return found;
  };
  const read: ChatUnit[] = [];
  for (const { jsonl, json } of units.values()) {
    const anchor = (jsonl ?? json)!;
    const companion = jsonl !== undefined ? json : undefined;
    let chat;
    try {
      chat = readGeminiChat(anchor);
    } catch (error) {
      problems.push({ code: "unreadable", path: anchor, message: (error as Error).message });
      continue;
    }
    // Gemini finds a chat's side files by the id on its first line; a converted legacy chat's
    // `.json` names the same session.
    const sessionId = chat.facts.sessionId ?? (companion ? safeFacts(companion)?.sessionId : undefined);
    read.push({ jsonl, json, anchor, companion, chat, sessionId });
  }
  const twins = resumeTwins(read);
  for (const unit of read) {
    if (twins.isTwin.has(unit)) continue;
    const { anchor, companion, chat, sessionId } = unit;
    const record = chatRecord(
      store,
      anchor,
      chat,
      sessionId,
      namespace,
      project === undefined ? name : undefined,
    );
    records.push(record);
    const copies = twins.of.get(unit) ?? [];
    addBundle(record, [
      ...(companion ? [companion] : []),
      ...backupsOf(unit.jsonl),
      ...backupsOf(unit.json),
      ...copies.flatMap((copy) => [copy.anchor, ...backupsOf(copy.anchor)]),
      ...(sessionId !== undefined ? artifactsOf(sessionId, side) : []),
    ]);
    if (copies.length > 0) markTwins(record, copies);
    subagentsOf.set(record, subagentChats(chats, record.bundle));
  }

  // What is left belongs to no chat here: per session id (only ids Gemini could have made, never
  // another folder of the project), and backups per chat name.
  const orphans = new Map<string, string[]>();
  const orphan = (key: string, paths: string[]) => {
    if (paths.length > 0) orphans.set(key, [...(orphans.get(key) ?? []), ...paths]);
  };
  for (const id of [...side.subagents.keys()]) orphan(id, artifactsOf(id, side));
  for (const id of [...side.toolOutputs.keys(), ...side.logs.keys()]) orphan(id, artifactsOf(id, side));
  for (const id of [...side.own.keys()]) if (UUID.test(id)) orphan(id, artifactsOf(id, side));
  for (const [file, paths] of side.backups) orphan(file, paths);
  for (const [key, paths] of orphans) {
    const record = orphanedBundle(store, `gemini-orphan:${key}`, namespace, paths);
    if (record) records.push(record);
  }
}

/** A chat file (with a converted legacy chat's `.json`) as read. */
interface ChatUnit {
  jsonl?: string;
  json?: string;
  /** What is read: the `.jsonl`, else the `.json`. */
  anchor: string;
  companion?: string;
  chat: { facts: GeminiChatFacts; identity: FileIdentity };
  sessionId?: string;
}

/** The 8 characters of a session id a chat's name ends in: Gemini's cleanup deletes every chat by them. */
export const SHORT_ID = /-([a-zA-Z0-9]{8})\.jsonl?$/;
const TWIN_WHAT = "an empty copy left by a resume";

/**
 * Gemini's resume twins (google-gemini/gemini-cli#27368): `gemini --resume` of a chat begun in an
 * earlier minute starts a second file, `session-<this minute>-<the same 8 characters>.jsonl`, with
 * the session's metadata and no conversation, and goes on writing to the first. At its next start
 * in the project, Gemini's cleanup finds the copy holds nothing to resume and deletes every chat
 * named with those 8 characters: the real chat too. A twin is such a copy beside the one chat of its
 * session Gemini would resume: a part of that chat's session (Gemini deletes them together), never
 * a session of its own. Two resumable chats of one session (a migrated copy) are left as they are.
 */
function resumeTwins(units: readonly ChatUnit[]) {
  const keyOf = (unit: ChatUnit) => {
    const short = SHORT_ID.exec(basename(unit.anchor))?.[1];
    return unit.sessionId !== undefined && short !== undefined ? `${unit.sessionId}\n${short}` : undefined;
  };
  const resumable = (unit: ChatUnit) =>
    unit.chat.facts.loadable && unit.chat.facts.resumable && unit.chat.facts.kind !== "subagent";
  const real = new Map<string, ChatUnit | null>();
  for (const unit of units) {
    const key = keyOf(unit);
    if (key !== undefined && resumable(unit)) real.set(key, real.has(key) ? null : unit);
  }
  const of = new Map<ChatUnit, ChatUnit[]>();
  const isTwin = new Set<ChatUnit>();
  for (const unit of units) {
    const key = keyOf(unit);
    const owner = key === undefined ? undefined : real.get(key);
    if (!owner || unit === owner || unit.chat.facts.resumable || unit.companion || !unit.jsonl) continue;
    of.set(owner, [...(of.get(owner) ?? []), unit]);
    isTwin.add(unit);
  }
  return { of, isTwin };
}

/** A chat's twins as parts that can go on their own, and a warning that says why they should. */
function markTwins(record: SessionRecord, twins: readonly ChatUnit[]) {
  const session = safeSessionId(record.id.slice("gemini:".length));
  record.detachable = twins.map(({ anchor, chat: { identity } }) => ({
    // The copy's minute, from its name: `session-<minute>-<8 characters>.jsonl`.
    id: `gemini-twin:${session}:${basename(anchor).slice("session-".length).replace(SHORT_ID, "")}`,
    path: anchor,
    sizeBytes: identity.size,
    fingerprint: { dev: identity.dev, ino: identity.ino, size: identity.size, mtimeNs: identity.mtimeNs },
    what: TWIN_WHAT,
  }));
  for (const twin of record.detachable)
    record.warnings.push({
      code: "resume-twin",
      message: `${basename(twin.path)} is ${TWIN_WHAT} of this chat: when its cleanup is on (the default), Gemini CLI deletes it at its next start in this project, and this chat with it. Remove the copy to keep the chat: session-retention clean --ids ${twin.id}`,
    });
}

/**
 * The chats in a session's subagent folders (`chats/<id>/`): each subagent brings its own log, tool
 * outputs and folder into the bundle, so a new one changes more than its folder. Kept with each
 * record a scan made (see `rescanGeminiChanged`).
 */
const subagentsOf = new WeakMap<SessionRecord, string>();
const subagentChats = (chats: string, bundle: readonly string[] | undefined) =>
  (bundle ?? [])
    .filter((part) => part.startsWith(`${chats}/`) && !part.slice(chats.length + 1).includes("/"))
    .flatMap((folder) => names(folder).filter((name) => /\.jsonl?$/.test(name)))
    .join("\n");

/** What Gemini writes in a project's folder that no scan reads: its logger, checkpoints, shell history. */
const PROJECT_FILES = /^(?:logs\.json|shell_history|checkpoint-.*\.json)$/;

/**
 * The scan of a store a watcher saw `changed` (paths under `root`) in since `previous`, its last
 * scan: Gemini CLI rewrites its chat, its activity log and its tool outputs as it works — a whole
 * scan for each was the cost of the store. Here only the sessions those paths belong to are read
 * again; paths no scan reads (settings, `history/`, a project's `logs.json`, checkpoints, memory)
 * are passed over. Undefined when a change is not of a known session whose chat names the same
 * session and whose parts and subagents are all still there (a chat, part or subagent that came or
 * went, `projects.json` or a `.project_root` that changed): the caller scans the store.
 */
export function rescanGeminiChanged(
  root: string,
  previous: StoreScan,
  changed: Iterable<string>,
): StoreScan | undefined {
  const place = (path: string, owned: (part: string) => boolean): Placed => {
    const steps = relative(root, path).split(sep);
    const top = steps[0]!;
    if (top === "" || top === "..") return undefined;
    if (top !== GEMINI_PROJECTS) return steps.length === 1 && top === "projects.json" ? undefined : "unread";
    if (steps.length < 3) return undefined; // tmp/ or a project folder: entries came or went
    const entry = steps[2]!;
    if (entry === ".project_root") return undefined; // whose project it is
    if (entry === "chats" || entry === "logs" || entry === "tool-outputs") {
      if (steps.length < 4) return undefined;
      if (entry === "logs" && !/^session-.+\.jsonl$/.test(steps[3]!)) return "unread";
      if (entry === "tool-outputs" && !steps[3]!.startsWith("session-")) return "unread";
      return join(root, ...steps.slice(0, 4));
    }
    if (entry.startsWith(".") || PROJECT_OWN.has(entry.toLowerCase()) || PROJECT_FILES.test(entry))
      return "unread";
    // A session's own folder `<id>/`. Any other entry — a file, a folder named after no session
    // here and after no id Gemini makes — no scan reads, unless a part was replaced by it.
    const part = join(root, ...steps.slice(0, 3));
    if (owned(part)) return part;
    const folder = lstatSync(part, { throwIfNoEntry: false })?.isDirectory() ?? false;
    return folder && (UUID.test(entry) || sessionFolders().has(entry)) ? part : "unread";
  };
  /** The folder name each session of the last scan would have as its own (`<id>/`). */
  let folders: Set<string> | undefined;
  const sessionFolders = () =>
    (folders ??= new Set(
      previous.records.filter((r) => r.id.startsWith("gemini:")).map((r) => safeSessionId(r.id.slice(7))),
    ));
  return rescanPlaced(previous, changed, place, reread);
}

/**
 * What a scan takes a part of a session in `project` as: in `chats/` a chat's companion or backup
 * file, else a subagents' folder; an activity log; a tool-outputs folder; the session's own folder.
 */
function geminiPartKind(project: string, part: string): "file" | "folder" | undefined {
  const [where, name, ...deeper] = relative(project, part).split(sep);
  if (where === undefined || where === ".." || deeper.length > 0) return undefined;
  if (name === undefined) return "folder"; // `<id>/`
  if (where === "chats") return CHAT_FILE.test(name) || CHAT_BACKUP.test(name) ? "file" : "folder";
  if (where === "logs") return "file";
  return where === "tool-outputs" ? "folder" : undefined;
}

/** `old`'s record read again from its chat now, if it names the same session with the same parts. */
function reread(old: SessionRecord): SessionRecord | undefined {
  const subagents = subagentsOf.get(old);
  // A chat with a resume twin: which file is the twin is decided across the folder, so it is scanned.
  if (old.detachable !== undefined) return undefined;
  if (subagents === undefined || !lstatSync(old.path, { throwIfNoEntry: false })?.isFile()) return undefined;
  let read;
  try {
    read = readGeminiChat(old.path);
  } catch {
    return undefined;
  }
  const chats = join(old.path, "..");
  const companion = old.path.endsWith(".jsonl") ? old.path.slice(0, -1) : undefined;
  const sessionId =
    read.facts.sessionId ??
    (companion && old.bundle?.includes(companion) ? safeFacts(companion)?.sessionId : undefined);
  const folder = relative(join(old.store.root, GEMINI_PROJECTS), join(chats, "..")).split(sep)[0]!;
  const fromFolder = old.warnings.some((w) => w.code === "namespace-from-folder");
  const fresh = chatRecord(
    old.store,
    old.path,
    read,
    sessionId,
    old.namespace,
    fromFolder ? folder : undefined,
  );
  if (fresh.id !== old.id) return undefined; // it names another session now: other side files are its own
  const parts = old.bundle ?? [];
  if (!rebundle(fresh, parts, (part) => geminiPartKind(join(chats, ".."), part))) return undefined;
  if (subagentChats(chats, fresh.bundle) !== subagents) return undefined;
  subagentsOf.set(fresh, subagents);
  return fresh;
}

function safeFacts(path: string): GeminiChatFacts | undefined {
  try {
    return readGeminiChat(path).facts;
  } catch {
    return undefined;
  }
}

function chatRecord(
  store: StoreRef,
  path: string,
  { facts, identity }: { facts: GeminiChatFacts; identity: FileIdentity },
  sessionId: string | undefined,
  namespace: string,
  /** The folder's name, when nothing says whose project it is. */
  unknownFolder: string | undefined,
): SessionRecord {
  const warnings: SessionWarning[] = [];
  if (identity.size === 0) warnings.push({ code: "empty-file", message: "empty chat" });
  else if (facts.headerless)
    warnings.push({
      code: "missing-header",
      message:
        "it does not start with the metadata line that names its session: Gemini CLI cannot load it, and its cleanup deletes such a file",
    });
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
  if (unknownFolder !== undefined)
    warnings.push({
      code: "namespace-from-folder",
      message: HASH_FOLDER.test(unknownFolder)
        ? `a chat does not say its project, and no project Gemini CLI knows has the sha256 "${unknownFolder}"`
        : `a chat does not say its project, and neither projects.json nor tmp/${unknownFolder}/.project_root names it: the folder name "${unknownFolder}" is all there is (Gemini's folder names are lossy)`,
    });
  const modifiedAt = iso(identity.mtimeMs);
  const { counts } = facts;
  // Gemini's list shows the summary, else the first prompt: that is its name (protected patterns
  // match names, so it stays one). The prompt is its first message too, for search and titles.
  const name = facts.summary ?? facts.firstPrompt;
  return {
    // A chat without its metadata names no session: an id from its path, as for any such file.
    id: sessionId !== undefined ? `gemini:${sessionId}` : pathDerivedId(path),
    store,
    path,
    namespace,
    sizeBytes: identity.size,
    createdAt: isoOf(facts.startTime ?? facts.firstAt) ?? modifiedAt,
    modifiedAt,
    // What Gemini records as the chat's last update (its cleanup's clock too), else its last message;
    // of a chat read to a cap, never before its file time (what follows the cap may be later).
    lastUsedAt: facts.capped
      ? laterOf(isoOf(facts.lastUpdated ?? facts.lastAt), modifiedAt)
      : (isoOf(facts.lastUpdated ?? facts.lastAt) ?? modifiedAt),
    fingerprint: { dev: identity.dev, ino: identity.ino, size: identity.size, mtimeNs: identity.mtimeNs },
    messageCount: counts.user + counts.gemini + counts.other,
    messageCounts: { user: counts.user, assistant: counts.gemini, toolResult: 0, other: counts.other },
    ...(name ? { name } : {}),
    ...(facts.firstPrompt ? { firstMessage: facts.firstPrompt } : {}),
    warnings,
  };
}

const isoOf = (time: string | undefined) => (time === undefined ? undefined : new Date(time).toISOString());
