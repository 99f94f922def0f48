// The marker a live pi process with the extension loaded keeps at `<stateDir>/active/<pid>.json`,
// naming the session file it writes to (docs/safety.md G3). Writing one stays free of zod: the
// extension does it on every pi session start, where every millisecond of loading counts. The
// reader, which must not trust the file, validates it with `ActiveMarkerSchema` (active-sessions.ts).
import { rmSync } from "node:fs";
import { join } from "node:path";
import { writePrivateFile } from "../fs/private-files.js";

export interface ActiveMarker {
  pid: number;
  /** The session file pi writes to, absolute. It may not exist yet: pi creates it lazily. */
  sessionFile: string;
  /** ISO date-time with offset. */
  startedAt: string;
}

export const markerFile = (markersDir: string, pid: number) => join(markersDir, `${pid}.json`);

/** Writes (or replaces) a process's marker atomically. */
export function writeActiveMarker(markersDir: string, marker: ActiveMarker): string {
  const file = markerFile(markersDir, marker.pid);
  const { pid, sessionFile, startedAt } = marker;
  writePrivateFile(file, `${JSON.stringify({ pid, sessionFile, startedAt })}\n`);
  return file;
}

export function removeActiveMarker(markersDir: string, pid: number): void {
  rmSync(markerFile(markersDir, pid), { force: true });
}
