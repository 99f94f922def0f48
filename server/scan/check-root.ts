// A root must be an existing, readable folder. Anything else is refused with one clear line; the
// scan never falls back to another (broader) folder.
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { pathTextProblem } from "../../shared/places.js";
import { UserError } from "../errors.js";
import { RefusedPlaceError } from "../safety/place-gate.js";

export class UnusableRootError extends UserError {
  constructor(
    readonly root: string,
    reason: string,
  ) {
    super(`session store ${root}: ${reason}`);
  }
  override name = "UnusableRootError";
}

/**
 * Returns the root's real absolute path, or throws UnusableRootError saying what is wrong (and
 * RefusedPlaceError for `""` or `.`, which would quietly mean the current folder, and for a path
 * holding a control character).
 */
export function checkRoot(root: string, cwd = process.cwd()): string {
  const empty = pathTextProblem(root, "the store root");
  if (empty) throw new RefusedPlaceError(empty.rule, root, root, empty.message);
  const absolute = isAbsolute(root) ? root : resolve(cwd, root);
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UnusableRootError(absolute, code === "ENOENT" ? "does not exist" : (error as Error).message);
  }
  if (!stat.isDirectory()) throw new UnusableRootError(absolute, "is not a folder");
  try {
    accessSync(absolute, constants.R_OK | constants.X_OK);
  } catch {
    throw new UnusableRootError(absolute, "is not readable (permission denied)");
  }
  return realpathSync(absolute);
}
