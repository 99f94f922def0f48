// A file the user asks us to write — a report (`report --out`), node_exporter's textfile (`metrics
// --textfile`) — through the same gate as every other write of ours outside our state folder: its
// folder must exist (none is made up on the way) and be no place the gate refuses for it (`/`, a
// system tree, a store, the quarantine, the trash), and the path must name a file, not a folder, a
// link or a device. It is written atomically — a temporary file in the same folder, renamed over
// the old one — so a reader such as node_exporter sees the old file or the new, never half. Every
// failure is one line that names the path and the reason, never a stack.
import { lstatSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { outputFolderProblem, pathTextProblem } from "../../shared/places.js";
import { UserError } from "../errors.js";
import { writeFileAtomic } from "../fs/atomic-write.js";
import { placeEnvironment, RefusedPlaceError } from "../safety/place-gate.js";

/** What a write failed with, in words (the system's message names our temporary file). */
const REASONS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "not permitted",
  EROFS: "the file system is read-only",
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is exceeded",
  EISDIR: "it is a folder",
  ENOTDIR: "a part of the path is not a folder",
};

/** The real path of `folder`, which must exist (none is made up on the way), or a UserError. */
function existingFolder(folder: string, subject: string): string {
  let real: string;
  try {
    real = realpathSync(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    const why = code === "ENOENT" ? "does not exist" : `cannot be used (${REASONS[code] ?? code})`;
    throw new UserError(`${subject}: its folder ${folder} ${why}`);
  }
  if (!statSync(real).isDirectory()) throw new UserError(`${subject}: ${folder} is not a folder`);
  return real;
}

/**
 * Writes `text` to the file `path` (`what` names it in messages: `--textfile`), or throws a
 * UserError — a RefusedPlaceError for a folder the gate refuses — saying why, with nothing written.
 * `stores`: the session stores in use, which the file must stay out of.
 */
export function writeOutputFile(
  path: string,
  text: string,
  options: {
    what: string;
    stores?: ReadonlyArray<{ path: string; label: string }>;
    /** The configured quarantine; default: our own. */
    quarantine?: string;
    env?: NodeJS.ProcessEnv;
  },
): void {
  const { what } = options;
  const named = pathTextProblem(path, what);
  if (named) throw new RefusedPlaceError(named.rule, path, path, named.message);
  const absolute = resolve(path);
  const stat = lstatSync(absolute, { throwIfNoEntry: false });
  if (stat?.isDirectory()) throw new UserError(`${what} ${path} is a folder: give the path of a file in it`);
  if (stat && !stat.isFile())
    throw new UserError(
      `${what} ${path} is ${stat.isSymbolicLink() ? "a symbolic link" : "not a regular file"}: give the path of a file (it is replaced whole)`,
    );
  const folder = existingFolder(dirname(absolute), `${what} ${path}`);
  const environment = placeEnvironment(options.env);
  const problem = outputFolderProblem(folder, {
    stores: (options.stores ?? []).map((s) => ({ ...s, path: environment.resolve(s.path) })),
    trash: environment.trash,
    quarantine:
      options.quarantine === undefined
        ? environment.defaultQuarantine
        : environment.resolve(options.quarantine),
  });
  if (problem) throw new RefusedPlaceError(problem.rule, path, folder, `${what} ${path}: ${problem.message}`);
  try {
    writeFileAtomic(join(folder, basename(absolute)), text, 0o644);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    const reason = REASONS[code] ?? (error as Error).message;
    throw new UserError(`cannot write ${what} ${path}: ${reason} (${code})`, { cause: error });
  }
}
