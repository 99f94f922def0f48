// What is said when pi runs without session-retention's extension: its sessions are then kept by a
// rougher rule than the extension's marker (server/stores/pi/pi-live.ts), and loading the extension
// is how to make it exact. One sentence, the same in the CLI, the dashboard and the extension.

/** A pi process running with no marker of our extension (`piWithoutExtension` in the API and `--json`). */
export interface PiWithoutExtension {
  pid: number;
  /** Its working folder: the namespace of the sessions it writes. */
  cwd: string;
  /** When it started (ISO), from /proc. */
  startedAt: string;
}

/** How to load the extension in every pi session. */
export const INSTALL_EXTENSION = "pi install npm:session-retention";

/** "pi process 42 runs in /p without session-retention's extension: …", with what is kept and how to do better. */
export function describePiWithoutExtension(pi: PiWithoutExtension): string {
  return (
    `pi process ${pi.pid} runs in ${pi.cwd} without session-retention's extension: its sessions there ` +
    `written since it started, and the latest one, are kept while it runs. For exact protection, ` +
    `load the extension (${INSTALL_EXTENSION}, or pi -e npm:session-retention for one run).`
  );
}

/** A running pi as /proc gave it (start in ms since the epoch), as it is reported. */
export const piWithoutExtensionOf = (pi: {
  pid: number;
  cwd: string;
  startedMs: number;
}): PiWithoutExtension => ({
  pid: pi.pid,
  cwd: pi.cwd,
  startedAt: new Date(pi.startedMs).toISOString(),
});
