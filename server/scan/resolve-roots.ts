// Which pi stores a command looks at: `--root DIR` (repeatable), else the config's `sessionDir`,
// else pi's own locations. Never a broader root than the one configured.

import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
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

/** A store whose sessions are folders. */
export interface FolderStore {
  kind: "agentsh" | "workspace";
  root: string;
}

export interface ResolvedStores extends ResolvedRoots {
  folderStores: FolderStore[];
}

const STORE_FLAG = /^(pi|agentsh|workspace):(.+)$/;

/** `--store agentsh:~/.agentsh/sessions` → its kind and folder. */
export function parseStoreFlag(value: string): { kind: "pi" | "agentsh" | "workspace"; root: string } {
  const match = STORE_FLAG.exec(value);
  if (!match)
    throw new UserError(`--store wants KIND:DIR with KIND pi, agentsh or workspace, got "${value}"`);
  return { kind: match[1] as "pi" | "agentsh" | "workspace", root: match[2]! };
}

/** agentsh's default store (spec 004). */
export const agentshDefaultRoot = (env: NodeJS.ProcessEnv) =>
  join(env.HOME || homedir(), ".agentsh", "sessions");

/**
 * Every store a command looks at. Flags (`--root`, `--store`) replace everything else; else the
 * config's `stores` list is exactly what is used; else pi's stores as `resolveRoots` finds them, plus
 * agentsh's `~/.agentsh/sessions` when it exists.
 */
export function resolveStores(
  flags: { roots: readonly string[]; stores?: readonly string[] },
  env: NodeJS.ProcessEnv = process.env,
  configured?: ConfiguredRoot,
): ResolvedStores {
  const split = (stores: ReadonlyArray<{ kind: "pi" | "agentsh" | "workspace"; root: string }>) => ({
    pi: stores.filter((s) => s.kind === "pi").map((s) => s.root),
    folders: stores.filter((s): s is FolderStore => s.kind !== "pi"),
  });
  const checked = (folders: readonly FolderStore[]) =>
    folders.map((s) => ({ kind: s.kind, root: checkRoot(s.root) }));
  const flagStores = (flags.stores ?? []).map(parseStoreFlag);
  if (flags.roots.length > 0 || flagStores.length > 0) {
    const { pi, folders } = split(flagStores);
    const roots = [...flags.roots, ...pi];
    return {
      ...(roots.length ? resolveRoots(roots, env) : { roots: [], notes: [] }),
      folderStores: checked(folders),
    };
  }
  const configuredStores = configured?.stores;
  if (configuredStores === "unknown")
    throw new UserError(
      `the stores named in ${configured!.configPath} cannot be trusted while the file is invalid; fix it or pass --store KIND:DIR`,
    );
  if (configuredStores !== undefined) {
    const { pi, folders } = split(configuredStores);
    return {
      ...(pi.length ? resolveRoots(pi, env) : { roots: [], notes: [] }),
      folderStores: checked(folders),
    };
  }
  const agentsh = agentshDefaultRoot(env);
  const folderStores: FolderStore[] = existsSync(agentsh)
    ? checked([{ kind: "agentsh", root: agentsh }])
    : [];
  try {
    return { ...resolveRoots([], env, configured), folderStores };
  } catch (error) {
    // No pi store, but agentsh's: look at that rather than at nothing.
    if (error instanceof UnusableRootError && folderStores.length > 0 && configured?.sessionDir === undefined)
      return { roots: [], notes: [error.message], folderStores };
    throw error;
  }
}
