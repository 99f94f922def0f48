// Gemini CLI deletes chats itself: when it starts, in the background, it deletes for good (no
// trash) chats of the project it was started in — only that project's; the others are never
// pruned by it — by its `general.sessionRetention` (on by default: older than 30 days). It judges
// each chat by the `lastUpdated` inside it, never the file's time; it also deletes, whatever their
// age, chats it cannot load or that hold no conversation it would resume; with `maxCount` it keeps
// only that many of the most recent; and with a chat it deletes every file sharing its short id
// and the chat's side files. (google-gemini/gemini-cli packages/cli/src/utils/sessionCleanup.ts
// `cleanupExpiredSessions`, `identifySessionsToDelete`; utils/sessionUtils.ts `getAllSessionFiles`.)
// That is a retention policy too: we show what it will delete next, project by project. We cannot
// keep sessions from it without rewriting the time inside their chats, so we warn and do not offer
// to.
import { lstatSync, readdirSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { formatBytes } from "../../../shared/format.js";
import type { ExternalSweep } from "../../../shared/plan.js";
import { sessionTitle } from "../../../shared/session-title.js";
import type { SessionRecord } from "../../../shared/session-record.js";
import type { TrashEntry } from "../../../shared/trash.js";
import type { SweptAgain } from "../adapter-types.js";
import { readGeminiChat } from "./chat.js";
import { CHAT_FILE, SHORT_ID } from "./gemini-store.js";
import { geminiRetention } from "./gemini-settings.js";
import { GEMINI_PROJECTS } from "./location.js";
import { type GeminiProjects, readGeminiProjects } from "./projects.js";

const DAY = 86_400_000;
const WHEN = "the next time it starts in their projects";

/** Why Gemini's cleanup deletes a chat. */
type Reason = { age: number } | { beyond: number } | "unloadable" | "no conversation" | { with: string };

/** In words, for one chat. */
function inWords(reason: Reason): string {
  if (reason === "unloadable") return "Gemini CLI cannot load it";
  if (reason === "no conversation") return "it holds no conversation Gemini CLI would resume";
  if ("age" in reason) return `its chat was last updated ${Math.floor(reason.age / DAY)} days ago`;
  if ("beyond" in reason) return `only the ${reason.beyond} most recent chats of the project are kept`;
  return `it shares its short id with ${reason.with}, which goes`;
}

interface ProjectSweep {
  project: string;
  setting: string;
  maxAgeMs?: number;
  /** Chat file → why it goes. */
  deletes: Map<string, Reason>;
}

/**
 * What Gemini's cleanup deletes when it next starts in the project of `folder` (a folder of
 * `tmp/`), if it ever will: never for a folder Gemini no longer uses for its project (a hash folder
 * from before slugs, one whose project nothing names), nor when its retention is off.
 */
function projectSweep(
  root: string,
  folder: string,
  projects: GeminiProjects,
  now: number,
  /** Chats to take as gone: what the sweep would do once they are removed. */
  without: ReadonlySet<string> = new Set(),
): ProjectSweep | undefined {
  const project = projects.projectOf(folder);
  if (!project || projects.folderOf(project.path) !== folder) return undefined;
  const retention = geminiRetention(root, project.path);
  if ("off" in retention) return undefined;
  const chats = join(root, GEMINI_PROJECTS, folder, "chats");
  let names: string[];
  try {
    names = readdirSync(chats)
      .filter((name) => CHAT_FILE.test(name) && !without.has(join(chats, name)))
      .sort();
  } catch {
    return undefined;
  }
  const deletes = new Map<string, Reason>();
  const valid: Array<{ path: string; lastUpdated: number }> = [];
  for (const name of names) {
    const path = join(chats, name);
    if (!lstatSync(path, { throwIfNoEntry: false })?.isFile()) continue;
    let facts;
    try {
      ({ facts } = readGeminiChat(path));
    } catch {
      deletes.set(path, "unloadable");
      continue;
    }
    if (!facts.loadable) deletes.set(path, "unloadable");
    else if (!facts.resumable || facts.kind === "subagent") deletes.set(path, "no conversation");
    // Without a time of its own, a chat Gemini loads line by line counts as updated now.
    else
      valid.push({
        path,
        lastUpdated: Date.parse(facts.lastUpdated ?? facts.startTime ?? new Date(now).toISOString()),
      });
  }
  valid.sort((a, b) => b.lastUpdated - a.lastUpdated);
  valid.forEach(({ path, lastUpdated }, index) => {
    if (retention.maxAgeMs !== undefined && lastUpdated < now - retention.maxAgeMs)
      deletes.set(path, { age: now - lastUpdated });
    else if (retention.maxCount !== undefined && index >= retention.maxCount)
      deletes.set(path, { beyond: retention.maxCount });
  });
  // Every chat named with the short id of one that goes, goes with it.
  const shortId = (path: string) => SHORT_ID.exec(basename(path))?.[1];
  const going = new Set([...deletes.keys()].flatMap((path) => shortId(path) ?? []));
  for (const name of names) {
    const path = join(chats, name);
    const id = shortId(path);
    if (!deletes.has(path) && id !== undefined && going.has(id)) {
      const other = [...deletes.keys()].find((p) => shortId(p) === id)!;
      deletes.set(path, { with: basename(other) });
    }
  }
  return {
    project: project.path,
    setting: retention.setting,
    ...(retention.maxAgeMs !== undefined ? { maxAgeMs: retention.maxAgeMs } : {}),
    deletes,
  };
}

/** The project folder of a path in `<root>/tmp/<folder>/chats/`, if it is one. */
function folderOfChat(root: string, path: string): string | undefined {
  const [tmp, folder, chats] = relative(root, path).split("/");
  return tmp === GEMINI_PROJECTS && chats === "chats" ? folder : undefined;
}

/** What Gemini CLI's own cleanup will delete in the store at `root` when it next starts in each project. */
export function geminiSweep(
  root: string,
  sessions: readonly SessionRecord[],
  now: Date,
): ExternalSweep | undefined {
  const chats = sessions.filter(
    (s) => s.store.kind === "gemini" && s.store.root === root && !s.id.startsWith("gemini-orphan:"),
  );
  const projects = readGeminiProjects(root);
  const byFolder = new Map<string, SessionRecord[]>();
  for (const session of chats) {
    const folder = folderOfChat(root, session.path);
    if (folder !== undefined) byFolder.set(folder, [...(byFolder.get(folder) ?? []), session]);
  }
  const swept: Array<{ session: SessionRecord; project: ProjectSweep; reason: Reason }> = [];
  const rescues: NonNullable<ExternalSweep["rescues"]> = [];
  for (const [folder, ofFolder] of byFolder) {
    const project = projectSweep(root, folder, projects, now.getTime());
    if (!project) continue;
    const goes = (session: SessionRecord, deletes: ReadonlyMap<string, Reason>) =>
      // A session's files (a converted legacy chat's two, a resume twin): it goes when any does.
      [session.path, ...(session.bundle ?? [])].find((path) => deletes.has(path));
    for (const session of ofFolder) {
      const file = goes(session, project.deletes);
      if (file === undefined) continue;
      swept.push({ session, project, reason: project.deletes.get(file)! });
      rescues.push(
        ...rescuesOf(
          session,
          (without) => projectSweep(root, folder, projects, now.getTime(), without),
          goes,
        ),
      );
    }
  }
  if (swept.length === 0) return undefined;
  swept.sort((a, b) => Date.parse(a.session.lastUsedAt) - Date.parse(b.session.lastUsedAt));
  const bytes = swept.reduce((total, { session }) => total + session.sizeBytes, 0);
  const perProject = new Map<ProjectSweep, number>();
  for (const { project } of swept) perProject.set(project, (perProject.get(project) ?? 0) + 1);
  const settings = [...new Set([...perProject.keys()].map((p) => p.setting))];
  const ages = [...perProject.keys()].flatMap((p) => (p.maxAgeMs !== undefined ? [p.maxAgeMs / DAY] : []));
  const whatever = swept.filter(
    ({ reason }) => reason === "unloadable" || reason === "no conversation",
  ).length;
  const n = (count: number) => `${count} session${count === 1 ? "" : "s"}`;
  const saved = new Set(rescues.map((r) => r.session)).size;
  const where = [...perProject].map(([p, count]) => `${p.project} (${count})`).join(", ");
  return {
    agent: "gemini",
    storeRoot: root,
    setting: settings.join("; "),
    ...(ages.length > 0 ? { days: Math.min(...ages) } : {}),
    when: WHEN,
    ids: swept.map(({ session }) => session.id),
    bytes,
    keptByYou: 0,
    keepable: false,
    ...(rescues.length > 0 ? { rescues } : {}),
    message:
      `Gemini CLI will permanently delete ${n(swept.length)} (${formatBytes(bytes)}), with no trash, ${WHEN} — ${where}: ` +
      `${settings.join("; ")}, by the time inside each chat` +
      `${whatever > 0 ? `; ${whatever} of them it cannot load or would not resume, deleted whatever their age` : ""}. ` +
      "It prunes only the project it is started in: projects you do not open again are never pruned." +
      (saved > 0
        ? ` ${saved === 1 ? "One of them goes" : `${saved} of them go`} only because of an empty copy a resume left beside it: remove the copy, and Gemini CLI keeps the chat.`
        : ""),
  };
}

/**
 * A swept session's resume twins (its `detachable` parts), when removing them is what keeps it:
 * the sweep worked out again without them (Gemini's own rule, not a guess) spares the session.
 */
function rescuesOf(
  session: SessionRecord,
  sweepWithout: (without: ReadonlySet<string>) => ProjectSweep | undefined,
  goes: (session: SessionRecord, deletes: ReadonlyMap<string, Reason>) => string | undefined,
): NonNullable<ExternalSweep["rescues"]> {
  const parts = session.detachable ?? [];
  if (parts.length === 0) return [];
  const without = new Set(parts.map((p) => p.path));
  const after = sweepWithout(without);
  const rest = { ...session, bundle: (session.bundle ?? []).filter((path) => !without.has(path)) };
  if (after && goes(rest, after.deletes) !== undefined) return [];
  const { title } = sessionTitle(session);
  return parts.map((part) => ({
    id: part.id,
    path: part.path,
    sizeBytes: part.sizeBytes,
    fingerprint: part.fingerprint,
    session: session.id,
    title,
    message: `${part.what}; remove it to keep “${title}”`,
  }));
}

/** After a restore: why Gemini CLI's cleanup would delete this chat again, if it would. */
export function geminiSweptAgain(entry: TrashEntry, now: Date): SweptAgain | undefined {
  if (entry.id.startsWith("gemini-orphan:")) return undefined;
  const folder = folderOfChat(entry.storeRoot, entry.originalPath);
  if (folder === undefined) return undefined;
  const project = projectSweep(entry.storeRoot, folder, readGeminiProjects(entry.storeRoot), now.getTime());
  const reason = project?.deletes.get(entry.originalPath);
  if (!project || reason === undefined) return undefined;
  // Not keepable: Gemini judges the time inside the chat, which we never rewrite.
  return {
    message: `Gemini CLI will delete it again the next time it starts in ${project.project} (${project.setting}): ${inWords(reason)}. It keeps no trash; to keep such chats, raise general.sessionRetention.maxAge in its settings`,
    keepable: false,
  };
}
