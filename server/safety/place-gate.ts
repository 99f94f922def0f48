// The one gate for every folder we may look in or move sessions into. A path is resolved to its
// real path first — a symlink to home or to `/` is judged as home or `/` — and then judged by the
// rules of shared/places.ts, together with every other folder in use: the store roots, the
// quarantine and the desktop trash. Every entry point goes through it (flags, the config file,
// the dashboard's policy, the pi extension, the library API), and the deletion engine goes through
// it again just before it moves anything: a symlink can change after it was checked. Every other
// write into a store (keeping a transcript from Claude's sweep, a workspace's metadata) is judged
// here too, by `checkSessionWrite`.
import { realpathSync } from "node:fs";
import { homedir, userInfo } from "node:os";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import {
  normalizePosix,
  pathTextProblem,
  type PlaceEnvironment,
  type PlaceProblem,
  placeProblem,
  type PlaceRule,
} from "../../shared/places.js";
import type { StoreKind } from "../../shared/session-record.js";
import { UserError } from "../errors.js";
import { statePaths } from "../state/state-dir.js";
import { isSessionPlace } from "../stores/session-place.js";
import { defaultStoresOf } from "../stores/store-adapter.js";

/** A folder refused by a rule of shared/places.ts; the message names the rule and the real path. */
export class RefusedPlaceError extends UserError {
  constructor(
    readonly rule: PlaceRule,
    readonly given: string,
    readonly resolved: string,
    message: string,
  ) {
    super(message);
  }
  override name = "RefusedPlaceError";
}

/**
 * The real path `given` names: relative to `cwd`, symlinks resolved. A path that does not exist
 * (yet: a quarantine is created on first use) is resolved up to its nearest existing folder.
 * `""` and `.` are refused: they name the current folder without saying so; so is a path holding a
 * control character (a NUL would make the system refuse it halfway through, with no rule named).
 */
export function realPlace(given: string, what = "the folder", cwd = process.cwd()): string {
  const text = pathTextProblem(given, what);
  if (text) throw new RefusedPlaceError(text.rule, given, given, text.message);
  let existing = isAbsolute(given) ? normalizePosix(given) : resolve(cwd, given);
  const missing: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(existing), ...missing);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== "ENOENT" && code !== "ENOTDIR") || existing === "/") throw error;
      missing.unshift(basename(existing));
      existing = dirname(existing);
    }
  }
}

const realOrNormal = (path: string) => {
  try {
    return realPlace(path);
  } catch {
    return normalizePosix(path);
  }
};

/**
 * The places everything is judged against, real: the home folder of `$HOME` and of the account
 * (both, when a test or a wrapper points `$HOME` elsewhere: the real one stays off limits), the
 * desktop trash and the default quarantine.
 */
export function placeEnvironment(env: NodeJS.ProcessEnv = process.env): Required<
  Pick<PlaceEnvironment, "home" | "homes" | "trash" | "defaultQuarantine">
> & {
  resolve: (path: string) => string;
} {
  const home = env.HOME || homedir();
  let accountHome: string | undefined;
  try {
    accountHome = userInfo().homedir;
  } catch {
    // no passwd entry (a container's arbitrary uid): $HOME is all there is
  }
  const homes = [...new Set([home, accountHome].filter((h): h is string => !!h).map(realOrNormal))];
  const dataHome = env.XDG_DATA_HOME || join(home, ".local", "share");
  return {
    home,
    homes,
    trash: realOrNormal(join(dataHome, "Trash")),
    defaultQuarantine: realOrNormal(statePaths(env).quarantine),
    resolve: realOrNormal,
  };
}

/**
 * Everything a config's folders are judged against on this machine (for `validateConfig`): real
 * paths, and the stores used when the config names none, which its quarantine must stay out of.
 */
export function configPlaceEnvironment(env: NodeJS.ProcessEnv = process.env): PlaceEnvironment {
  const environment = placeEnvironment(env);
  const defaultStores = defaultStorePlaces(env).map(({ path, label }) => ({
    path: environment.resolve(path),
    label,
  }));
  return { ...environment, defaultStores };
}

/**
 * The stores used when a config names none: where each agent keeps its stores by default, as its
 * adapter says (`StoreAdapter.defaultStores`), whether a folder is there yet or not.
 */
export const defaultStorePlaces = (env: NodeJS.ProcessEnv = process.env) =>
  defaultStoresOf(env).stores.map(({ kind, root, label }) => ({ kind, path: root, label }));

export interface StorePlace {
  kind: StoreKind;
  /** As given (a flag, a config value); resolved here. */
  root: string;
  /** Where it was named, for the message: `--root`, `stores[1].root`, `sessionDir`… */
  label: string;
}

/** The real roots of `stores` and the real quarantine, or the first refusal as a RefusedPlaceError. */
export function checkPlaces(
  stores: readonly StorePlace[],
  options: { quarantine?: string; env?: NodeJS.ProcessEnv } = {},
): { stores: Array<StorePlace & { given: string }>; quarantine: string } {
  const environment = placeEnvironment(options.env);
  const quarantine =
    options.quarantine === undefined
      ? environment.defaultQuarantine
      : realPlace(options.quarantine, "the quarantine folder");
  const resolved: Array<StorePlace & { given: string }> = [];
  for (const store of stores) {
    const root = realPlace(store.root, `${store.label} folder`);
    // The same store named twice (a flag and the config's default, two spellings) is one store.
    if (!resolved.some((r) => r.root === root && r.kind === store.kind))
      resolved.push({ ...store, given: store.root, root });
  }
  const refuse = (given: string, resolvedPath: string, label: string, problem: PlaceProblem) => {
    const shown = normalizePosix(given) === resolvedPath ? "" : `"${given}" resolves to `;
    throw new RefusedPlaceError(problem.rule, given, resolvedPath, `${label}: ${shown}${problem.message}`);
  };
  const context = { homes: environment.homes, trash: environment.trash };
  for (const store of resolved) {
    const others = resolved.filter((r) => r !== store).map((r) => ({ path: r.root, label: r.label }));
    const problem = placeProblem(store.root, "store", {
      ...context,
      stores: others,
      quarantine: { path: quarantine, configured: options.quarantine !== undefined },
    });
    if (problem) refuse(store.given, store.root, store.label, problem);
  }
  if (options.quarantine !== undefined) {
    const stores = resolved.map((r) => ({ path: r.root, label: r.label }));
    const problem = placeProblem(quarantine, "quarantine", { ...context, stores });
    if (problem) refuse(options.quarantine, quarantine, "deletion.quarantineDir", problem);
  }
  return { stores: resolved, quarantine };
}

/** A session we are about to write into: a file or folder of a store, as found there or as named. */
export interface SessionWrite {
  kind: StoreKind;
  /** The store's root, as given (resolved here). */
  root: string;
  /** The session's own file or folder, as given (resolved here). */
  path: string;
  /** What the write is, to begin the message with: `workspace metadata`, `keep claude:<id>`… */
  label: string;
}

/**
 * The gate for every write into a store that is not a move of the deletion engine (which judges
 * its own moves again at the moment it makes them): keeping a transcript from Claude's sweep,
 * writing a workspace's `.metadata.json`. The session's folder is resolved to its real path; then
 * the session itself, resolved, must be no place of its own rules (`/`, home or above it, a system
 * folder, another user's home: a symlink to home is judged as home), it must not be a symlink at
 * all (a write through one lands wherever it points), it must be where its kind of store keeps
 * sessions below the store's real root, and that root must pass the gate as any store root does —
 * not inside another store (`others`), the quarantine or the desktop trash. Returns the real root
 * and the real path, or throws a RefusedPlaceError naming the rule and the real path; it writes
 * nothing.
 */
export function checkSessionWrite(
  target: SessionWrite,
  options: {
    /** The other stores in use (the config's, or the ones found on our own): a root must not lie in one. */
    others?: ReadonlyArray<{ kind: StoreKind; path: string; label: string }>;
    /** The configured quarantine (a root may hold it, as a store may); default: our own, which none may. */
    quarantine?: string;
    env?: NodeJS.ProcessEnv;
  } = {},
): { root: string; path: string } {
  const environment = placeEnvironment(options.env);
  const refuse = (rule: PlaceRule, resolved: string, message: string): never => {
    throw new RefusedPlaceError(rule, target.path, resolved, `${target.label}: ${message}`);
  };
  for (const [given, what] of [
    [target.path, "the session"],
    [target.root, `the ${target.kind} store`],
  ] as const) {
    const text = pathTextProblem(given, what);
    if (text) refuse(text.rule, given, text.message);
  }
  // The folder it is in, resolved; the session itself as named there (a symlink stays one).
  const named = isAbsolute(target.path) ? normalizePosix(target.path) : resolve(target.path);
  const path = join(realPlace(dirname(named)), basename(named));
  const root = realPlace(target.root, `the ${target.kind} store`);
  const homes = environment.homes;
  // Judged for what it really is first: a symlink to home is refused as home.
  const real = realPlace(path);
  const own = placeProblem(real, "session", { homes });
  if (own)
    refuse(own.rule, real, real === path ? own.message : `"${target.path}" resolves to ${own.message}`);
  if (real !== path)
    refuse(
      "symlink",
      path,
      `${path} is a symbolic link; a session is never written through one (rule symlink)`,
    );
  if (!isSessionPlace(target.kind, root, path))
    refuse(
      "session-place",
      path,
      `${path} is not where a ${target.kind} store keeps its sessions in ${root} (rule session-place)`,
    );
  const stores = (options.others ?? [])
    .map((store) => ({ ...store, path: environment.resolve(store.path) }))
    .filter((store) => !(store.kind === target.kind && store.path === root));
  const problem = placeProblem(root, "store", {
    homes,
    stores,
    quarantine:
      options.quarantine === undefined
        ? { path: environment.defaultQuarantine, configured: false }
        : { path: realPlace(options.quarantine, "the quarantine folder"), configured: true },
    trash: environment.trash,
  });
  if (problem) refuse(problem.rule, root, `its store ${problem.message}`);
  return { root, path };
}
