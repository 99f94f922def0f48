// A made-up but realistic pi store, so a machine without pi sessions still gets a populated dashboard.
import {
  appendFileSync,
  existsSync,
  lstatSync,
  readFileSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, resolve, sep } from "node:path";
import { ensurePrivateDir } from "../fs/private-files.js";
import { type DemoProject, FOLLOW_UPS, pickModel, PROJECTS, THINKING_LEVELS } from "./demo-content.js";
import { copyPathForFork, copyWholeSession, factsOf, type WrittenSession } from "./forks.js";
import { Random, uuidV7 } from "./seeded-random.js";
import { DAY, HOUR, MINUTE, SessionBuilder, type SessionPlan } from "./session-builder.js";
import { type BeforeCreate, serialize, writeSessionFile } from "./session-writer.js";

export { piFolderName } from "./session-writer.js";

export interface DemoStoreOptions {
  /** The moment the store is generated at: every time in it is at or before this. Default: now. */
  now?: Date;
  /** Same seed and same `now` give byte-identical files. */
  seed?: number;
}

export interface DemoStoreSummary {
  sessions: number;
  bytes: number;
}

// ---------------------------------------------------------------------------------------------
// The whole store: which sessions, in which projects, with which rare events, and the forks
// ---------------------------------------------------------------------------------------------

const DEFAULT_SEED = 20_250_704;

function pickWeighted(random: Random, projects: readonly DemoProject[]): DemoProject {
  const total = projects.reduce((sum, project) => sum + project.weight, 0);
  let roll = random.next() * total;
  for (const project of projects) {
    roll -= project.weight;
    if (roll < 0) return project;
  }
  return projects[0]!;
}

/** Flags for the rare events; each one is forced on some session so every store has them all. */
const RARE_EVENTS = [
  "renamed",
  "nameCleared",
  "label",
  "branch",
  "summaryBranch",
  "userBash",
  "extensionState",
  "aborted",
  "long",
  "fullPageScreenshot",
] as const;

function buildDemoStore(
  dir: string,
  options: DemoStoreOptions,
  beforeCreate: BeforeCreate,
): DemoStoreSummary {
  const nowMs = (options.now ?? new Date()).getTime();
  const random = new Random(options.seed ?? DEFAULT_SEED);
  const root = resolve(dir);
  ensurePrivateDir(root);

  // Every project gets a few sessions; the rest follow the weights.
  const sessionCount = random.int(68, 78);
  const assigned: DemoProject[] = PROJECTS.flatMap((project) => [project, project, project]);
  while (assigned.length < sessionCount) assigned.push(pickWeighted(random, PROJECTS));
  const projectOf = random.sample(assigned, assigned.length);

  // Image-heavy sessions (1–4 MB) only where the agent has screenshots or plots to look at.
  const withScreenshots = projectOf.flatMap((project, index) =>
    project.screenshots.length > 0 ? [index] : [],
  );
  const imageSessions = random.sample(withScreenshots, 5);
  const others = projectOf.map((_, index) => index).filter((index) => !imageSessions.includes(index));
  const forced = new Map<number, Set<(typeof RARE_EVENTS)[number]>>();
  const force = (index: number, event: (typeof RARE_EVENTS)[number]) => {
    const events = forced.get(index) ?? new Set();
    events.add(event);
    forced.set(index, events);
  };
  const carriers = random.sample(others, RARE_EVENTS.length - 1);
  for (const [at, index] of carriers.entries()) force(index, RARE_EVENTS[at]!);
  force(imageSessions[0]!, "fullPageScreenshot");

  const written: WrittenSession[] = [];
  let bytes = 0;
  for (let index = 0; index < sessionCount; index++) {
    const project = projectOf[index]!;
    const events = forced.get(index) ?? new Set();
    const isImage = imageSessions.includes(index);
    const isLong = events.has("long") || (!isImage && random.chance(0.03));
    const targetBytes = isImage
      ? Math.round(random.between(events.has("fullPageScreenshot") ? 2.2e6 : 1.1e6, 3.8e6))
      : isLong
        ? Math.round(random.between(320e3, 900e3))
        : Math.round(random.logBetween(5e3, 200e3));
    const task = random.int(0, project.tasks.length - 1);
    const named = random.chance(0.65) || events.has("renamed") || events.has("nameCleared");
    const branch: SessionPlan["branch"] = events.has("summaryBranch")
      ? "summary"
      : events.has("branch") || random.chance(0.06)
        ? "plain"
        : "none";
    const plan: SessionPlan = {
      random: random.child(),
      project,
      model: pickModel(random),
      thinkingLevel: random.pick(THINKING_LEVELS),
      targetBytes,
      // Enough that images, not text, make up most of an image session.
      screenshots: isImage ? Math.ceil(targetBytes / 150_000) : 0,
      fullPageScreenshot: events.has("fullPageScreenshot"),
      modelSwitch: random.chance(0.15),
      thinkingSwitch: random.chance(0.15),
      label: events.has("label") || random.chance(0.08),
      branch,
      userBash: events.has("userBash") || random.chance(0.08),
      extensionState: events.has("extensionState"),
      aborted: events.has("aborted") || random.chance(0.05),
      ...(named ? { name: project.names[task] ?? project.names[0]! } : {}),
      ...(events.has("renamed") ? { renamed: true } : {}),
      ...(events.has("nameCleared") ? { nameCleared: true } : {}),
      ...(random.chance(0.12) ? { resumedAfterDays: random.int(1, 9) } : {}),
    };

    // When it happened: mostly in the last weeks, a few months ago, two still going within the hour.
    const age =
      index === 0
        ? random.between(112, 119) * DAY
        : index === 1
          ? random.between(95, 104) * DAY
          : 120 * DAY * random.next() ** 2.2 + random.between(0, 6) * HOUR;
    const endsWithinTheHour = index === 2 || index === 3;
    const margin = endsWithinTheHour ? random.between(2, 50) * MINUTE : random.between(20, 240) * MINUTE;

    const builder = new SessionBuilder(plan, { leaf: null, ids: [], clock: random.int(0, 3) });
    // A new pi session records its model and thinking level first (written with the first reply).
    builder.modelChange(plan.model);
    builder.thinkingLevelChange(plan.thinkingLevel);
    builder.run(project.tasks[task]!);
    const duration = builder.clock;
    // Times are relative until now: place the session, never later than `now - margin`.
    const latestStart = nowMs - margin - duration;
    const startMs = Math.round(endsWithinTheHour ? latestStart : Math.min(nowMs - age, latestStart));

    const id = uuidV7(plan.random, startMs);
    const header = {
      type: "session",
      version: 3,
      id,
      timestamp: new Date(startMs).toISOString(),
      cwd: project.cwd,
    };
    const lines = builder.entries.map((entry) => serialize(entry, startMs));
    const lastMs = startMs + (builder.entries.at(-1)!.timestamp as number);
    const file = writeSessionFile(
      root,
      beforeCreate,
      project.cwd,
      startMs,
      id,
      [JSON.stringify(header), ...lines],
      lastMs,
    );
    bytes += file.bytes;
    written.push({ path: file.path, plan, lines, facts: factsOf(builder.entries, startMs), lastMs });
  }

  // Forks: `/fork` inside a project (a copy of the path to the chosen reply, screenshots and all —
  // forks are a real way stores fill up) and a session carried over into another project (all entries).
  const forkable = written.filter((session) => session.lastMs < nowMs - 4 * DAY && session.facts.length > 12);
  const mostImages = [...forkable].sort((a, b) => b.plan.screenshots - a.plan.screenshots)[0];
  // The API work carried on in the web app that calls the API.
  const [webApp, api] = [PROJECTS[1]!, PROJECTS[2]!];
  const textOnly = forkable.filter((session) => session !== mostImages && session.plan.screenshots === 0);
  const crossParent = textOnly.find((session) => session.plan.project === api) ?? textOnly[0];
  const forks: Array<{ parent: WrittenSession; into: DemoProject; wholeFile: boolean }> = [];
  if (mostImages) forks.push({ parent: mostImages, into: mostImages.plan.project, wholeFile: false });
  if (crossParent) {
    const into = crossParent.plan.project === webApp ? api : webApp;
    forks.push({ parent: crossParent, into, wholeFile: true });
  }
  for (const { parent, into, wholeFile } of forks) {
    const { lines, leaf, ids, copiedUntilMs } = wholeFile
      ? copyWholeSession(parent)
      : copyPathForFork(parent, random);
    const plan: SessionPlan = {
      random: random.child(),
      project: into,
      model: parent.plan.model,
      thinkingLevel: parent.plan.thinkingLevel,
      targetBytes: Math.round(random.logBetween(20e3, 120e3)), // on top of what it copied
      screenshots: 0,
      fullPageScreenshot: false,
      modelSwitch: false,
      thinkingSwitch: false,
      label: false,
      branch: "none",
      userBash: false,
      extensionState: false,
      aborted: false,
      name: `${parent.plan.name ?? random.pick(into.names)} (fork)`,
    };
    const builder = new SessionBuilder(plan, { leaf, ids, clock: random.int(1_000, 20_000) });
    builder.run(random.pick(FOLLOW_UPS));
    // After what it copied, and finished a few days ago at the latest.
    const latestStart = nowMs - 3 * DAY - builder.clock;
    const forkMs = Math.round(
      Math.max(copiedUntilMs + MINUTE, Math.min(latestStart, copiedUntilMs + random.between(0.2, 30) * HOUR)),
    );
    const id = uuidV7(plan.random, forkMs);
    const header = {
      type: "session",
      version: 3,
      id,
      timestamp: new Date(forkMs).toISOString(),
      cwd: into.cwd,
      parentSession: parent.path,
    };
    lines.unshift(JSON.stringify(header));
    lines.push(...builder.entries.map((entry) => serialize(entry, forkMs)));
    const lastMs = forkMs + (builder.entries.at(-1)!.timestamp as number);
    const file = writeSessionFile(root, beforeCreate, into.cwd, forkMs, id, lines, lastMs);
    bytes += file.bytes;
  }
  return { sessions: written.length + forks.length, bytes };
}

/**
 * Writes a demo store into `dir` (a pi `sessions` folder: one `--<cwd>--` folder per project).
 * Refuses to overwrite a file that is already there.
 */
export function generateDemoStore(dir: string, options: DemoStoreOptions = {}): DemoStoreSummary {
  return buildDemoStore(dir, options, () => {});
}

// ---------------------------------------------------------------------------------------------
// Generate once, repair a half-written store
// ---------------------------------------------------------------------------------------------

/**
 * Next to the sessions folder, never inside it, so no scan sees them: the journal lists every path
 * the generator creates, before it creates it; the marker is written last, so it means "complete".
 */
export function demoStoreMarkers(dir: string) {
  const parent = dirname(resolve(dir));
  return { journal: join(parent, ".demo-created"), complete: join(parent, ".demo-complete") };
}

/** Whether every folder from `root` down to `path`'s folder is a real folder (no symlink to follow out). */
function onlyRealFolders(root: string, path: string): boolean {
  for (let folder = dirname(path); folder !== root; folder = dirname(folder)) {
    if (!folder.startsWith(root + sep)) return false;
    try {
      if (!lstatSync(folder).isDirectory()) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/** Removes what an earlier, unfinished run created: only journaled paths, only inside `root`, nothing through a symlink. */
function removeJournaled(root: string, journal: string) {
  let text: string;
  try {
    text = readFileSync(journal, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  const files: string[] = [];
  const folders: string[] = [];
  for (const line of text.split("\n")) {
    let relativePath: unknown;
    try {
      relativePath = JSON.parse(line);
    } catch {
      continue; // empty, or cut off by a crash before anything was created for it
    }
    if (typeof relativePath !== "string" || isAbsolute(relativePath)) continue;
    const path = resolve(root, relativePath);
    if (!path.startsWith(root + sep) || !onlyRealFolders(root, path)) continue;
    (path.endsWith(".jsonl") ? files : folders).push(path);
  }
  for (const path of files) {
    try {
      if (lstatSync(path).isFile()) unlinkSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  // Folders last, deepest first, and only when empty: whatever someone else put there stays.
  for (const path of folders.sort((a, b) => b.length - a.length)) {
    try {
      if (lstatSync(path).isDirectory()) rmdirSync(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
    }
  }
}

/**
 * Makes sure `dir` holds a complete demo store: nothing to do if one was finished earlier, else
 * removes what an unfinished run left behind (and nothing else) and generates a fresh one.
 */
export async function ensureDemoStore(dir: string, options: DemoStoreOptions = {}): Promise<void> {
  const root = resolve(dir);
  const { journal, complete } = demoStoreMarkers(root);
  let haveFolder = false;
  try {
    haveFolder = statSync(root).isDirectory();
  } catch {}
  if (haveFolder && existsSync(complete)) return;

  removeJournaled(root, journal);
  rmSync(complete, { force: true });
  ensurePrivateDir(root);
  writeFileSync(journal, "", { mode: 0o600 });
  const summary = buildDemoStore(root, options, (relativePath) =>
    appendFileSync(journal, `${JSON.stringify(relativePath)}\n`),
  );
  const note = { folder: basename(root), ...summary, generatedAt: new Date().toISOString() };
  writeFileSync(complete, `${JSON.stringify(note)}\n`, { mode: 0o600 });
}
