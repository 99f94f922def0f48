// Which pi sessions a running pi without our extension may be writing (docs/safety.md G3). With the
// extension, its marker names the one session; without it, /proc tells only that a pi runs and in
// which folder (pi-processes.ts). So every session of that folder written since the process started
// is in use — pi writes a new session's file at its first reply, and a resumed one at its next entry —
// and so is the latest session of that folder in each store, which `pi -c` resumes before it writes
// anything. A session's folder is its header's `cwd` (whatever store it is in: pi's custom session
// dirs are flat), or, for a file without one, the `--<cwd>--` folder it lies in.
import { basename, dirname } from "node:path";
import type { SessionRecord } from "../../../shared/session-record.js";
import { folderNameOf } from "./locations.js";
import { START_TOLERANCE_MS } from "../../fs/process-start.js";
import type { RunningPi } from "./pi-processes.js";

/** Why a pi without a marker counts only roughly, said after each reason. */
const ROUGHLY = "pi runs without session-retention's extension";

/** The pi sessions that running pi processes without a marker may be using, by path: which process, and how we know. */
export function piLiveSessions(
  running: readonly RunningPi[],
  sessions: readonly SessionRecord[],
): Map<string, { pid: number; how: string }> {
  const live = new Map<string, { pid: number; how: string }>();
  if (running.length === 0) return live;
  const pi = sessions.filter((s) => s.store.kind === "pi");
  for (const { pid, cwd, startedMs } of running) {
    const folder = folderNameOf(cwd);
    const ofCwd = pi.filter((s) => s.namespace === cwd || basename(dirname(s.path)) === folder);
    const latest = new Map<string, SessionRecord>();
    for (const session of ofCwd) {
      const modified = Date.parse(session.modifiedAt);
      if (modified >= startedMs - START_TOLERANCE_MS && !live.has(session.path))
        live.set(session.path, {
          pid,
          how: `written since pi process ${pid} started in ${cwd} (${ROUGHLY})`,
        });
      const newest = latest.get(session.store.root);
      if (!newest || modified > Date.parse(newest.modifiedAt)) latest.set(session.store.root, session);
    }
    for (const session of latest.values())
      if (!live.has(session.path))
        live.set(session.path, {
          pid,
          how: `the latest session of ${cwd}, which pi process ${pid} may have resumed (${ROUGHLY})`,
        });
  }
  return live;
}
