// Which pi stores a command looks at: `--root DIR` (repeatable) replaces pi's own locations.

import { checkRoot, UnusableRootError } from "../scan/check-root.js";
import { discoverPiRoots } from "../stores/pi/locations.js";

export interface ResolvedRoots {
  /** Real, readable folders to scan. */
  roots: string[];
  /** Configured locations we skipped, said plainly. */
  notes: string[];
}

/**
 * With `--root`, every given folder must be usable. Without, pi's default store and its custom
 * session dirs are used where they exist; if none does, the command has nothing to look at.
 */
export function resolveRoots(
  flagRoots: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): ResolvedRoots {
  if (flagRoots.length > 0)
    return { roots: [...new Set(flagRoots.map((root) => checkRoot(root)))], notes: [] };
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
