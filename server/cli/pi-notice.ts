// What `scan` and `status` say about a pi running without our extension (`plan` and `clean` say it
// through the plan's inputs). The markers' reader, with zod, is loaded only when a pi is running:
// `scan`'s own start-up stays free of it.
import {
  describePiWithoutExtension,
  type PiWithoutExtension,
  piWithoutExtensionOf,
} from "../../shared/unmarked-pi.js";
import { visible } from "../../shared/visible-text.js";
import { statePaths } from "../state/state-dir.js";
import { runningAgents } from "../stores/store-adapter.js";

/**
 * The pi processes running now with no marker of our extension that bear on the stores looked at
 * (`roots`, whose sessions' namespaces are `namespaces`); none off Linux.
 */
export async function piWithoutExtension(look: {
  roots: readonly string[];
  namespaces: Iterable<string>;
}): Promise<PiWithoutExtension[]> {
  const running = runningAgents().flatMap((agent) => agent.running);
  if (running.length === 0) return [];
  const { unmarkedProcesses } = await import("../state/active-sessions.js");
  return unmarkedProcesses(
    statePaths().activeMarkers,
    { roots: look.roots, namespaces: new Set(look.namespaces) },
    running,
  ).map(piWithoutExtensionOf);
}

/** One `note:` line on stderr for each. */
export function notePiWithoutExtension(found: readonly PiWithoutExtension[], stderr: (line: string) => void) {
  for (const pi of found) stderr(`note: ${visible(describePiWithoutExtension(pi))}`);
}
