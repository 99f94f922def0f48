// Which sessions a live process is using (docs/safety.md G3), so no plan ever lists them: the pi
// extension's markers (`<stateDir>/active/<pid>.json`) whose pid is alive, files a process holds
// open for writing (`/proc/*/fd` on Linux; a reader — `tail -f`, a scan by another
// session-retention — loses nothing when a file is moved, and counting it would make two cleans
// block each other), and, for an agent whose processes show its live sessions (its adapter's
// `processes`: pi's, running without the extension, no marker of its pid), the sessions its
// processes may be writing. The last signal, a write within the grace window, needs no disk and is
// applied by the pure policy engine.
import { readdirSync, readFileSync, readlinkSync, realpathSync, rmSync } from "node:fs";
import { basename, dirname, isAbsolute, join, sep } from "node:path";
import { z } from "zod";
import type { SessionRecord } from "../../shared/session-record.js";
import type { ActiveMarker } from "./active-marker.js";
import { isProcessAlive } from "../fs/lock-file.js";
import { START_TOLERANCE_MS } from "../fs/process-start.js";
import { readSmallTextFile, UnreadableFileError } from "../fs/read-small-file.js";
import type { AgentProcess } from "../stores/adapter-types.js";
import { runningAgents } from "../stores/store-adapter.js";

export { removeActiveMarker, writeActiveMarker } from "./active-marker.js";

/**
 * What the pi extension writes on `session_start` (active-marker.ts) and removes on
 * `session_shutdown`. Not strict: a newer extension may add fields, and its marker must still
 * protect its session.
 */
export const ActiveMarkerSchema = z.object({
  pid: z.number().int().positive(),
  /** The session file pi writes to. It may not exist yet: pi creates it lazily. */
  sessionFile: z.string().refine(isAbsolute, { error: "must be an absolute path" }),
  startedAt: z.iso.datetime({ offset: true }),
}) satisfies z.ZodType<ActiveMarker>;

export interface ActiveSession {
  /** Real path (symlinks in its folders resolved), comparable with scanned paths. */
  path: string;
  pid: number;
  via: "marker" | "open-file" | "agent-process";
  /** For "agent-process": which of its agent's rules, in words. */
  how?: string;
}

export interface ActiveDetection {
  sessions: ActiveSession[];
  /** Markers we could not use, said plainly. */
  problems: string[];
  /** Markers of dead processes, removed. */
  staleMarkersRemoved: string[];
  /**
   * Agents' processes running with no usable marker of their own (pi without our extension, most
   * likely) that bear on these stores: they write to one of them, or keep a session of them in use.
   */
  unmarked: AgentProcess[];
}

export interface DetectActiveOptions {
  markersDir: string;
  /**
   * Only open files under these roots count (everything else a process has open is irrelevant),
   * and an agent's process without a marker is reported when it writes to one of them.
   */
  roots: readonly string[];
  /** Default "/proc"; absent (not Linux) → the open-file check is skipped. */
  procDir?: string;
  isPidAlive?: (pid: number) => boolean;
  /** The scanned sessions: those an agent's process without a marker may be writing are found among them. */
  sessions?: readonly SessionRecord[];
  /** The agents' processes running; default: from /proc (`runningAgents`). */
  running?: ReturnType<typeof runningAgents>;
}

const MARKER_NAME = /^(\d+)\.json$/;
/** A marker is ~200 bytes; anything much bigger is not one. */
const MARKER_MAX_BYTES = 64 * 1024;

/** The real path of a file, or of its folder when the file does not exist (yet). */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return path;
    }
  }
}

const nothingDetected = (): ActiveDetection => ({
  sessions: [],
  problems: [],
  staleMarkersRemoved: [],
  unmarked: [],
});

export function detectActiveSessions(options: DetectActiveOptions): ActiveDetection {
  const alive = options.isPidAlive ?? isProcessAlive;
  const result = nothingDetected();
  const markers = readMarkers(options.markersDir, alive, result);
  readOpenFiles(options.procDir ?? "/proc", options.roots, result);
  for (const { processes, running } of options.running ?? runningAgents()) {
    const unmarked = withoutMarker(running, markers);
    const protecting = new Set<number>();
    for (const [path, { pid, how }] of processes.liveSessions(unmarked, options.sessions ?? [])) {
      result.sessions.push({ path, pid, via: "agent-process", how });
      protecting.add(pid);
    }
    // A process of another home (another user's stores, a test's sandbox) is none of this look's business.
    result.unmarked.push(...unmarked.filter((p) => protecting.has(p.pid) || writesToAny(p, options.roots)));
  }
  return result;
}

/** Whether a process writes to one of `roots` (by the stores its environment names). */
const writesToAny = (process: AgentProcess, roots: readonly string[]) =>
  process.stores.some((store) => roots.includes(store));

/**
 * The processes among `running` that no marker is of: none names its pid, or the one that does was
 * written before the process started (a dead process's, whose pid was taken by this one).
 */
function withoutMarker(running: readonly AgentProcess[], markers: readonly ActiveMarker[]): AgentProcess[] {
  return running.filter(
    (p) =>
      !markers.some(
        (marker) => marker.pid === p.pid && Date.parse(marker.startedAt) >= p.startedMs - START_TOLERANCE_MS,
      ),
  );
}

/**
 * The agents' processes running now (`running`) without a marker of theirs that bear on a look —
 * they write to one of its `roots`, or its sessions have a namespace that is their folder — for
 * what `scan` and `status` say. The markers are only read (a dead process's stays for the next plan
 * to remove).
 */
export function unmarkedProcesses(
  markersDir: string,
  look: { roots: readonly string[]; namespaces: ReadonlySet<string> },
  running: readonly AgentProcess[],
): AgentProcess[] {
  if (running.length === 0) return [];
  const markers = readMarkers(markersDir, isProcessAlive, nothingDetected(), { removeStale: false });
  return withoutMarker(running, markers).filter(
    (p) => look.namespaces.has(p.cwd) || writesToAny(p, look.roots),
  );
}

/** The usable markers of live processes (their sessions added to `result`), stale ones removed unless told not to. */
function readMarkers(
  dir: string,
  alive: (pid: number) => boolean,
  result: ActiveDetection,
  { removeStale = true } = {},
): ActiveMarker[] {
  const markers: ActiveMarker[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return markers; // no markers folder: no extension has run yet
  }
  for (const name of names) {
    const match = MARKER_NAME.exec(name);
    if (!match) continue; // temporary files of a write in progress, and anything else
    const file = join(dir, name);
    const namedPid = Number(match[1]);
    let marker: ActiveMarker;
    try {
      const text = readSmallTextFile(file, { maxBytes: MARKER_MAX_BYTES, what: "active-session marker" });
      marker = ActiveMarkerSchema.parse(JSON.parse(text));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // removed while we looked
      result.problems.push(
        `active-session marker ${file} is unreadable` +
          (alive(namedPid)
            ? `: process ${namedPid} is alive, but which session it uses cannot be told`
            : "") +
          ` (${error instanceof z.ZodError ? error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") : error instanceof UnreadableFileError ? error.problem : (error as Error).message})`,
      );
      continue;
    }
    if (!alive(marker.pid)) {
      if (removeStale) {
        rmSync(file, { force: true });
        result.staleMarkersRemoved.push(file);
      }
      continue;
    }
    markers.push(marker);
    result.sessions.push({ path: realPath(marker.sessionFile), pid: marker.pid, via: "marker" });
  }
  return markers;
}

function readOpenFiles(procDir: string, roots: readonly string[], result: ActiveDetection) {
  if (roots.length === 0) return;
  const prefixes = roots.map((root) => (root.endsWith(sep) ? root : root + sep));
  let pids: string[];
  try {
    pids = readdirSync(procDir).filter((name) => /^\d+$/.test(name));
  } catch {
    return; // no /proc: not Linux, or not mounted
  }
  for (const pidName of pids) {
    const pid = Number(pidName);
    if (pid === process.pid) continue; // our own reads during a scan are not "in use"
    let fds: string[];
    try {
      fds = readdirSync(join(procDir, pidName, "fd"));
    } catch {
      continue; // another user's process, or one that just exited
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(join(procDir, pidName, "fd", fd));
      } catch {
        continue;
      }
      if (prefixes.some((prefix) => target.startsWith(prefix)) && openForWriting(procDir, pidName, fd))
        result.sessions.push({ path: target, pid, via: "open-file" });
    }
  }
}

/**
 * Whether a file descriptor was opened for writing: the access mode in `/proc/<pid>/fdinfo/<fd>`'s
 * octal `flags`. When that cannot be read, it counts as writing — the safe side.
 */
function openForWriting(procDir: string, pid: string, fd: string): boolean {
  try {
    const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(join(procDir, pid, "fdinfo", fd), "utf8"))?.[1];
    return flags === undefined || (Number.parseInt(flags, 8) & 0o3) !== 0; // O_ACCMODE: 0 is O_RDONLY
  } catch {
    return true;
  }
}

/** Active session paths → how we know, in words for the plan ("pi process 123 (marker)"). */
export function activePaths(detection: ActiveDetection): Map<string, string> {
  const byPath = new Map<string, string>();
  for (const session of detection.sessions)
    if (!byPath.has(session.path))
      byPath.set(
        session.path,
        session.via === "marker"
          ? `pi process ${session.pid} (marker)`
          : session.via === "agent-process"
            ? session.how!
            : `open in process ${session.pid}`,
      );
  return byPath;
}
