// Which Claude Code sessions are in use. Claude appends to its transcript in batches and closes it
// in between, so no open file shows it; instead each running Claude process registers itself in
// `<root>/sessions/<pid>.json` ({pid, sessionId, cwd, startedAt, procStart, pidDomain, …}). A
// registration counts while its process lives and is the same process: a pid can be reused, so on
// Linux `procStart` (field 22 of /proc/<pid>/stat) must match, and a registration from another pid
// namespace (a container) is trusted while it was updated within a day. The registry goes stale after
// `/clear` and `--continue` (the id it names is no longer the file written), so every transcript of
// a live process's folder written since that process started is in use too. Background sessions
// can be live with no process: a job whose `jobs/<id>/state.json` says it is working or blocked.
// The grace window of the policy covers the rest.
import { readdirSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import type { SessionRecord } from "../../../shared/session-record.js";
import { isProcessAlive } from "../../fs/lock-file.js";
import { processStart } from "../../fs/process-start.js";
import { readSmallTextFile } from "../../fs/read-small-file.js";
import { claudeProjectFolder } from "./location.js";

/** How far a registration's start time may be from its process's: Claude writes it soon after starting. */
const START_TOLERANCE_MS = 60_000;

interface Registration {
  pid: number;
  sessionId?: string;
  cwd?: string;
  startedAt?: number;
  updatedAt?: number;
  procStart?: string;
  pidDomain?: string;
}

/** A registration from another pid namespace counts while it was updated this recently. */
const FOREIGN_FRESH_MS = 86_400_000;

/** Our own pid namespace, as Claude records it (`linux::pid:[<inode>]`); undefined off Linux. */
function ownPidDomain(): string | undefined {
  try {
    return `linux::${readlinkSync("/proc/self/ns/pid")}`;
  } catch {
    return undefined;
  }
}

const timeOf = (value: unknown): number | undefined => {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && !Number.isNaN(Date.parse(value))) return Date.parse(value);
  return undefined;
};

function registrations(root: string): Registration[] {
  const folder = join(root, "sessions");
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const found: Registration[] = [];
  for (const name of names) {
    if (!/^\d+\.json$/.test(name)) continue;
    try {
      const raw = JSON.parse(
        readSmallTextFile(join(folder, name), { maxBytes: 64 * 1024, what: "Claude Code registration" }),
      ) as Record<string, unknown>;
      const pid = Number(raw.pid ?? name.slice(0, -".json".length));
      if (!Number.isInteger(pid) || pid <= 0) continue;
      const startedAt = timeOf(raw.startedAt);
      const updatedAt = timeOf(raw.updatedAt);
      found.push({
        pid,
        ...(typeof raw.sessionId === "string" ? { sessionId: raw.sessionId } : {}),
        ...(typeof raw.cwd === "string" ? { cwd: raw.cwd } : {}),
        ...(startedAt !== undefined ? { startedAt } : {}),
        ...(updatedAt !== undefined ? { updatedAt } : {}),
        ...(raw.procStart !== undefined ? { procStart: String(raw.procStart) } : {}),
        ...(typeof raw.pidDomain === "string" ? { pidDomain: raw.pidDomain } : {}),
      });
    } catch {
      // unreadable or not JSON: not a registration we can trust, so it protects nothing by itself
    }
  }
  return found;
}

/**
 * When the process is the registered one: alive, and — where /proc tells — started when the
 * registration says (its `procStart` ticks, or its `startedAt` within a minute).
 */
function liveStart(registration: Registration, now: number): number | undefined {
  const ours = ownPidDomain();
  if (registration.pidDomain && ours && registration.pidDomain !== ours) {
    // Its pid means nothing here: trust it while it keeps being updated.
    const seen = registration.updatedAt ?? registration.startedAt;
    return seen !== undefined && now - seen < FOREIGN_FRESH_MS ? (registration.startedAt ?? 0) : undefined;
  }
  if (!isProcessAlive(registration.pid)) return undefined;
  const start = processStart(registration.pid);
  if (!start) return registration.startedAt ?? 0;
  if (registration.procStart !== undefined && /^\d+$/.test(registration.procStart))
    return registration.procStart === start.ticks ? start.ms : undefined;
  if (
    registration.startedAt !== undefined &&
    Math.abs(registration.startedAt - start.ms) > START_TOLERANCE_MS
  )
    return undefined; // the pid now belongs to another process
  return start.ms;
}

/**
 * Background sessions (agent view) whose job is working or blocked: live even with no process, as
 * Claude's supervisor restarts them. Read defensively: the state file's shape is not documented.
 */
function runningJobs(root: string): Array<[sessionId: string, how: string]> {
  const jobs = join(root, "jobs");
  let names: string[];
  try {
    names = readdirSync(jobs);
  } catch {
    return [];
  }
  return names.flatMap((job): Array<[string, string]> => {
    try {
      const state = JSON.parse(
        readSmallTextFile(join(jobs, job, "state.json"), {
          maxBytes: 1024 * 1024,
          what: "Claude Code job state",
        }),
      ) as Record<string, unknown>;
      const status = state.state ?? state.status;
      const id = state.sessionId;
      return (status === "working" || status === "blocked") && typeof id === "string"
        ? [[id, `Claude Code background job ${job} is ${String(status)}`]]
        : [];
    } catch {
      return [];
    }
  });
}

/** The Claude sessions of `root` that live Claude processes are using, by record id, with how we know. */
export function claudeLiveSessions(
  root: string,
  sessions: readonly SessionRecord[],
  now = Date.now(),
): Map<string, string> {
  const live = new Map<string, string>();
  const ours = sessions.filter((s) => s.store.kind === "claude" && s.store.root === root);
  /** The session and, before its transcript exists, its side files. */
  const named = (id: string, how: string) => {
    for (const session of ours)
      if (session.id === `claude:${id}` || session.id === `claude-orphan:${id}`) live.set(session.id, how);
  };
  for (const [id, how] of runningJobs(root)) named(id, how);
  for (const registration of registrations(root)) {
    const started = liveStart(registration, now);
    if (started === undefined) continue;
    if (registration.sessionId)
      named(registration.sessionId, `Claude Code process ${registration.pid} is running it`);
    if (registration.cwd === undefined) continue;
    const folder = join(root, "projects", claudeProjectFolder(registration.cwd));
    for (const session of ours)
      if (
        session.path.startsWith(`${folder}/`) &&
        Date.parse(session.modifiedAt) >= started &&
        !live.has(session.id)
      )
        live.set(
          session.id,
          `written since Claude Code process ${registration.pid} started in ${registration.cwd}`,
        );
  }
  return live;
}
