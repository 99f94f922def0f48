// `mkdir -p` that always returns. Node's own `mkdirSync(path, { recursive: true })` spins forever at
// full CPU under procfs: there `mkdir` answers ENOENT for a child of a folder that exists, which
// Node reads as "the parent is missing", makes the parent (EEXIST) and retries, for ever (a known
// Node and Bun bug). A state dir, a quarantine or a restore's folder that leads into /proc — a
// careless PI_CODING_AGENT_DIR, say — must be a clear error, not a hung server. So: find the nearest
// folder that exists, then create each missing one below it once, and let any error through.
import { mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { UserError } from "../errors.js";

/**
 * Creates `folder` and its missing parents (each with `mode`, narrowed by the umask); nothing if it
 * exists. A folder that cannot be made is a `UserError` naming it, with the system error as its cause.
 */
export function makeDirs(folder: string, mode = 0o700): void {
  const missing: string[] = [];
  for (let at = resolve(folder); ; at = dirname(at)) {
    if (isFolder(at)) break;
    missing.push(at);
    if (dirname(at) === at) break; // the root itself is missing: mkdir below says why
  }
  for (const at of missing.reverse()) {
    try {
      mkdirSync(at, { mode });
    } catch (error) {
      // Made meanwhile by someone else (another of our processes): fine if it is a folder now.
      if ((error as NodeJS.ErrnoException).code === "EEXIST" && isFolder(at)) continue;
      // One line for the user; the cause sets the API's status (a full disk is 507).
      throw new UserError(`cannot create the folder ${folder}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
