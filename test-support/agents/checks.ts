// The real-agent suite's checks, the same for every agent: our scan against what the agent itself
// lists, each session's size against the bytes on disk, every file the agent named after a session
// inside that session's bundle, and clean / trash restore as the agent sees them (it stops listing
// and fails cleanly on resume; it lists again and resumes with the model's reply).
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join, sep } from "node:path";
import { expect } from "vitest";
import type { Plan } from "../../shared/plan.js";
import type { SessionRecord, StoreKind } from "../../shared/session-record.js";
import type { SoftDeleteResult } from "../../shared/trash.js";
import { statePaths } from "../../server/state/state-dir.js";
import { ourCli, type Run } from "./sandbox.js";

/** An agent as the suite drives it. */
export interface AgentUnderTest {
  kind: StoreKind;
  /** The ids (ours) of the sessions the agent itself lists now, across every project, sorted. */
  list(): Promise<string[]>;
  /** Asks the agent to continue `session` with `prompt` (print mode). */
  resume(session: SessionRecord, prompt: string): Promise<Run>;
  /** The names the agent gives files of a session (its id; Gemini's first 8 characters too). */
  namesOf(session: SessionRecord): string[];
}

/** Our scan's sessions of one agent, by id. */
export async function ourSessions(kind: StoreKind): Promise<SessionRecord[]> {
  const scanned = await ourCli("scan", "--json", "--no-cache");
  if (scanned.status !== 0) throw new Error(`scan failed (${scanned.status}): ${scanned.stderr}`);
  const report = JSON.parse(scanned.stdout) as { sessions: SessionRecord[] };
  return report.sessions.filter((s) => s.store.kind === kind).sort((a, b) => a.id.localeCompare(b.id));
}

/** A session's files and folders: its path, its bundle, its index file. */
export const partsOf = (session: SessionRecord) => [
  session.path,
  ...(session.bundle ?? []),
  ...(session.metaFile ? [session.metaFile] : []),
];

/** Every file under `path` (itself, if it is one), symlinks not followed. */
function filesUnder(path: string): string[] {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat) return [];
  if (!stat.isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => filesUnder(join(path, name)));
}

/** Every file of a session (its parts, and the files in those that are folders), each once. */
export const filesOf = (session: SessionRecord) => [...new Set(partsOf(session).flatMap(filesUnder))].sort();

/**
 * The bytes on disk of a session's files: their apparent sizes. A link among them (Claude links a
 * subagent's task output to its transcript) is not followed and its own few bytes are not counted,
 * as our scan measures every folder (docs/stores.md).
 */
export function bytesOnDisk(session: SessionRecord): number {
  return filesOf(session).reduce((sum, file) => {
    const stat = lstatSync(file);
    return stat.isFile() ? sum + stat.size : sum;
  }, 0);
}

/** A hash of a session's files, names and bytes (a link's target): equal before and after means untouched. */
export function hashOf(session: SessionRecord): string {
  const hash = createHash("sha256");
  for (const file of filesOf(session)) {
    const bytes = lstatSync(file).isSymbolicLink() ? readlinkSync(file) : readFileSync(file);
    hash.update(`${file}\0`).update(bytes).update("\0");
  }
  return hash.digest("hex");
}

/**
 * Files and folders under `roots` whose name holds one of a session's names (`namesOf`) but are
 * not inside that session's parts: what a delete would leave behind. Our own state and quarantine,
 * and `skip` (the projects' own folders), are not looked into.
 */
export function leftOutOfBundles(
  roots: readonly string[],
  sessions: readonly SessionRecord[],
  namesOf: (s: SessionRecord) => string[],
  skip: readonly string[] = [],
): Array<{ session: string; path: string }> {
  const state = statePaths();
  const ignored = [state.configFile, join(state.trashLedgers, ".."), state.quarantine, ...skip];
  const inside = (path: string, parent: string) => path === parent || path.startsWith(parent + sep);
  const found: Array<{ session: string; path: string }> = [];
  const walk = (path: string) => {
    if (ignored.some((i) => inside(path, i))) return;
    const name = path.slice(path.lastIndexOf(sep) + 1);
    for (const session of sessions)
      if (namesOf(session).some((n) => name.includes(n)) && !partsOf(session).some((p) => inside(path, p)))
        found.push({ session: session.id, path });
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat?.isDirectory()) for (const child of readdirSync(path)) walk(join(path, child));
  };
  for (const root of roots) if (existsSync(root)) walk(root);
  return found;
}

/** `clean --ids …` (chosen by hand, confirmed), as JSON. */
export async function cleanIds(...ids: string[]): Promise<{ run: Run; result: SoftDeleteResult | null }> {
  const run = await ourCli("clean", "--ids", ...ids, "--yes", "--json");
  const parsed = JSON.parse(run.stdout || "null") as { result: SoftDeleteResult | null } | null;
  return { run, result: parsed?.result ?? null };
}

/** `trash restore <operation>`; fails the test unless everything came back. */
export async function restoreOperation(operationId: string): Promise<void> {
  const run = await ourCli("trash", "restore", operationId, "--json");
  if (run.status !== 0)
    throw new Error(`trash restore ${operationId} failed (${run.status}): ${run.stdout} ${run.stderr}`);
}

/**
 * The running session is kept: the plan keeps it as active, and `clean --ids` of it moves nothing
 * (its files are byte for byte what they were, nothing more is in the quarantine).
 */
export async function expectRunningKept(session: SessionRecord): Promise<void> {
  const planned = await ourCli("plan", "--json");
  expect(planned.status).toBe(0);
  const plan = JSON.parse(planned.stdout) as Plan;
  expect(plan.kept.find((k) => k.id === session.id)).toMatchObject({ reason: "active" });
  expect(plan.candidates.map((c) => c.id)).not.toContain(session.id);
  const quarantined = () => (existsSync(statePaths().quarantine) ? readdirSync(statePaths().quarantine) : []);
  const before = { files: hashOf(session), quarantine: quarantined() };
  const { run, result } = await cleanIds(session.id);
  expect(result?.moved ?? []).toEqual([]);
  expect(run.status).toBe(1);
  expect(run.stderr).toMatch(/active/);
  expect({ files: hashOf(session), quarantine: quarantined() }).toEqual(before);
}

/**
 * `clean` of one session: it leaves the agent's list and the agent's resume of it fails cleanly
 * (non-zero, saying so in `notFound`'s words, and writing no new file at its path); `trash
 * restore`: the agent lists it again and resumes it with the model's reply (`reply`).
 */
export async function expectCleanAndRestore(
  agent: AgentUnderTest,
  session: SessionRecord,
  expected: { notFound: RegExp; reply: RegExp; prompt: string },
): Promise<void> {
  const listed = await agent.list();
  expect(listed).toContain(session.id);
  const { run, result } = await cleanIds(session.id);
  expect({ status: run.status, moved: result?.moved.map((m) => m.id) }).toEqual({
    status: 0,
    moved: [session.id],
  });
  for (const part of partsOf(session)) expect(existsSync(part), part).toBe(false);
  expect(await agent.list()).toEqual(listed.filter((id) => id !== session.id));

  const refused = await agent.resume(session, expected.prompt);
  expect(refused.status, `${refused.stdout}\n${refused.stderr}`).not.toBe(0);
  expect(`${refused.stdout}\n${refused.stderr}`).toMatch(expected.notFound);
  expect(existsSync(session.path), `the refused resume wrote ${session.path}`).toBe(false);

  await restoreOperation(result!.operationId!);
  expect(await agent.list()).toEqual(listed);
  const resumed = await agent.resume(session, expected.prompt);
  expect(resumed.status, `${resumed.stdout}\n${resumed.stderr}`).toBe(0);
  expect(resumed.stdout).toMatch(expected.reply);
}

/**
 * A whole project cleaned in one operation leaves the agent listing exactly the other projects'
 * sessions; restored, it lists exactly what it listed before.
 */
export async function expectProjectRoundTrip(agent: AgentUnderTest, project: string): Promise<void> {
  const listed = await agent.list();
  const ours = (await ourSessions(agent.kind)).filter((s) => s.namespace === project);
  expect(ours.length).toBeGreaterThan(0);
  const { run, result } = await cleanIds(...ours.map((s) => s.id));
  expect(run.status, run.stderr).toBe(0);
  expect(result?.moved.map((m) => m.id).sort()).toEqual(ours.map((s) => s.id).sort());
  const gone = new Set(ours.map((s) => s.id));
  expect(await agent.list()).toEqual(listed.filter((id) => !gone.has(id)));
  await restoreOperation(result!.operationId!);
  expect(await agent.list()).toEqual(listed);
}
