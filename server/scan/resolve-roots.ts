// Which pi stores a command looks at: `--root DIR` (repeatable), else the config's `sessionDir`,
// else pi's own locations. Never a broader root than the one configured.

import { UserError } from "../errors.js";
import type { ConfiguredRoot } from "../state/configured-root.js";
import { discoverPiRoots } from "../stores/pi/locations.js";
import { checkRoot, UnusableRootError } from "./check-root.js";

export interface ResolvedRoots {
  /** Real, readable folders to scan. */
  roots: string[];
  /** Configured locations we skipped, said plainly. */
  notes: string[];
}

/**
 * With `--root`, every given folder must be usable. Else the config's `sessionDir` must be usable
 * (an unusable one is an error, not a reason to look elsewhere). Else pi's default store and its
 * custom session dirs are used where they exist; if none does, the command has nothing to look at.
 */
export function resolveRoots(
  flagRoots: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  configured?: ConfiguredRoot,
): ResolvedRoots {
  if (flagRoots.length > 0)
    return { roots: [...new Set(flagRoots.map((root) => checkRoot(root)))], notes: [] };
  const sessionDir = configured?.sessionDir;
  if (sessionDir === "unknown")
    throw new UserError(
      `the store root named in ${configured!.configPath} cannot be trusted while the file is invalid; fix it or pass --root DIR`,
    );
  if (sessionDir !== undefined) return { roots: [checkRoot(sessionDir)], notes: [] };
  const discovered = discoverPiRoots(env);
  const roots: string[] = [];
  const notes = [...discovered.notes];
  for (const root of discovered.roots) {
    try {
      const real = checkRoot(root.path);
      if (!roots.includes(real)) roots.push(real);
    } catch (error) {
      if (root.origin !== "default")
        notes.push(`${root.origin} session dir skipped: ${(error as Error).message}`);
    }
  }
  if (roots.length === 0) {
    const main = discovered.roots[0]!.path;
    throw new UnusableRootError(
      main,
      "does not exist (no pi sessions here; use --root DIR or set PI_CODING_AGENT_DIR)",
    );
  }
  return { roots, notes };
}
