// The rules for every folder we may look in (a store root) or move sessions into (the quarantine):
// one set of rules, applied to paths already made absolute and normalized. The server resolves
// symlinks first (server/safety/place-gate.ts) and applies these rules to the real paths at every
// entry point and again just before it moves anything; the dashboard's policy editor applies them
// to what is typed, for instant feedback. Pure: no node:path (this module also runs in the browser).
import { visible } from "./visible-text.js";
import { SESSION_DIR_KIND } from "./store-kinds.js";

/** What a refusal is about, named in every message so a user can look the rule up. */
export type PlaceRule =
  | "empty-path"
  | "control-character"
  | "symlink"
  | "session-place"
  | "output-in-store"
  | "relative-path"
  | "filesystem-root"
  | "home"
  | "above-home"
  | "users-home"
  | "system-folder"
  | "store-in-store"
  | "store-in-trash"
  | "quarantine-in-store"
  | "quarantine-in-trash"
  | "quarantine-in-home";

/** A store root, the quarantine, or a session we write into (its own file or folder). */
export type PlaceRole = "store" | "quarantine" | "session";

export interface PlaceProblem {
  rule: PlaceRule;
  /** One sentence: the path (as resolved), what it is, and why it is refused. */
  message: string;
}

/** Everything a place is judged against: all paths absolute and normalized (and real, on the server). */
export interface PlaceContext {
  /** The user's home folder(s): `$HOME` and the account's own, when they differ. */
  homes: readonly string[];
  /** The other store roots in use (not this one again), to refuse one inside another. */
  stores?: ReadonlyArray<{ path: string; label: string }>;
  /**
   * The quarantine folder, for a store: sessions moved there must not be found again. A store
   * around a configured quarantine is not refused itself: the quarantine is, in its own check.
   */
  quarantine?: { path: string; configured: boolean };
  /** The desktop trash (`$XDG_DATA_HOME/Trash`). */
  trash?: string;
}

/**
 * Folders that are never a store or a quarantine themselves. A store may live below some of them
 * (`/srv/sandbox/workspace`, `/tmp/x`), never at their top.
 */
const SYSTEM_FOLDERS = new Set([
  "/bin",
  "/boot",
  "/dev",
  "/etc",
  "/home",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/lost+found",
  "/media",
  "/mnt",
  "/nix",
  "/opt",
  "/proc",
  "/root",
  "/run",
  "/sbin",
  "/snap",
  "/srv",
  "/sys",
  "/tmp",
  "/usr",
  "/var",
  "/var/cache",
  "/var/lib",
  "/var/log",
  "/var/tmp",
  "/var/mail",
  "/var/spool",
  // macOS
  "/Applications",
  "/Library",
  "/System",
  "/Users",
  "/Volumes",
  "/private",
  "/private/etc",
  "/private/tmp",
  "/private/var",
]);

/** Trees that hold the system and nothing of a user's sessions: everything below them is refused too. */
const SYSTEM_TREES = ["/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32"]
  .concat(["/proc", "/run", "/sbin", "/sys", "/usr", "/System", "/private/etc"])
  .map((tree) => `${tree}/`);

/** Folders whose children are users' home folders. */
const HOME_PARENTS = new Set(["/home", "/Users"]);

/** `/a/./b/../c/` → `/a/c`. */
export function normalizePosix(path: string): string {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

/** Whether `inner` is `outer` or inside it (both normalized). */
export const isWithin = (inner: string, outer: string) =>
  inner === outer || outer === "/" || inner.startsWith(`${outer}/`);

/** `~` and `~/…` against `home`; anything else as it is. */
export const expandHome = (raw: string, home: string) =>
  raw === "~" ? home : raw.startsWith("~/") ? `${home}/${raw.slice(2)}` : raw;

/**
 * `""`, `.` and `./` name the current folder without saying so: refused before anything resolves
 * them. `/` (and `//`, `/.`) is absolute: it is judged as the file system's root it names.
 */
export function emptyPathProblem(raw: string, what: string): PlaceProblem | undefined {
  if (raw.trim() === "") return { rule: "empty-path", message: `${what} is empty; give the folder's path` };
  if (!raw.startsWith("/") && raw.split("/").every((part) => part === "." || part === ""))
    return {
      rule: "empty-path",
      message: `${what} "${raw}" names the current folder only implicitly; give the folder's path`,
    };
  return undefined;
}

/* eslint-disable-next-line no-control-regex -- matching control characters is the point */
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * A path holding a control character (NUL, a line feed, ESC…, DEL) is refused before anything
 * uses it: no file name we look for has one, the system cuts a path at a NUL, and a line feed or
 * an escape in a path we print or write into a metrics label forges what a reader sees.
 */
export function controlCharacterProblem(raw: string, what: string): PlaceProblem | undefined {
  const at = raw.search(CONTROL);
  if (at < 0) return undefined;
  const code = raw.charCodeAt(at).toString(16).toUpperCase().padStart(4, "0");
  return {
    rule: "control-character",
    message: `${what} "${visible(raw)}" holds the control character U+${code} (at character ${at + 1}); a path never does (rule control-character)`,
  };
}

/** Why the text of a path is refused before it is resolved: a control character, or nothing named. */
export const pathTextProblem = (raw: string, what: string): PlaceProblem | undefined =>
  controlCharacterProblem(raw, what) ?? emptyPathProblem(raw, what);

/** The rules that judge a place on its own, whatever else is in use: `[rule, what it is]`. */
function ownProblem(path: string, homes: readonly string[]): [PlaceRule, string] | undefined {
  if (path === "/") return ["filesystem-root", "is the whole file system"];
  for (const home of homes) {
    if (path === home) return ["home", "is the home folder"];
    if (isWithin(home, path)) return ["above-home", `contains the home folder ${home}`];
  }
  if (SYSTEM_FOLDERS.has(path)) return ["system-folder", "is a system folder"];
  const tree = SYSTEM_TREES.find((t) => path.startsWith(t));
  if (tree) return ["system-folder", `is inside the system folder ${tree.slice(0, -1)}`];
  if (HOME_PARENTS.has(parentOf(path))) return ["users-home", "is a user's home folder"];
  return undefined;
}

const parentOf = (path: string) => path.slice(0, path.lastIndexOf("/")) || "/";

/**
 * Why `path` (absolute, normalized — real on the server) may not be used in `role`, or undefined.
 * The first rule that applies wins; the rules go from the broadest place to the narrowest.
 */
export function placeProblem(path: string, role: PlaceRole, context: PlaceContext): PlaceProblem | undefined {
  const noun = {
    store: "a session store",
    quarantine: "a quarantine folder",
    session: "a session to write to",
  }[role];
  const refuse = (rule: PlaceRule, what: string): PlaceProblem => ({
    rule,
    message: `${path} ${what}, not ${noun} (rule ${rule})`,
  });
  const own = ownProblem(path, context.homes);
  if (own) return refuse(...own);
  // A session is judged on its own here; its store's root is judged as a store (place-gate.ts).
  if (role === "session") return undefined;
  // Other stores are compared only when they are places at all: `/` is refused for itself, and
  // must not make every other store "inside the store /".
  const stores = (context.stores ?? []).filter((s) => !ownProblem(s.path, context.homes));
  const overlap = (other: string) => isWithin(path, other) || isWithin(other, path);
  const relation = (other: string) => (isWithin(path, other) ? "is inside" : "contains");
  if (role === "store") {
    // Of two nested stores the inner one is refused: its sessions would be found twice.
    for (const store of stores)
      if (isWithin(path, store.path))
        return refuse(
          "store-in-store",
          `${path === store.path ? "is also" : "is inside"} the store ${store.path} (${store.label})`,
        );
    // Nor is a quarantine refused for itself (`/`, home): every store would be "inside" it, and
    // the quarantine's own check names the real problem.
    const quarantine =
      context.quarantine && !ownProblem(context.quarantine.path, context.homes)
        ? context.quarantine
        : undefined;
    if (quarantine && (quarantine.configured ? isWithin(path, quarantine.path) : overlap(quarantine.path)))
      return refuse("store-in-trash", `${relation(quarantine.path)} the quarantine ${quarantine.path}`);
    if (context.trash !== undefined && overlap(context.trash))
      return refuse("store-in-trash", `${relation(context.trash)} the desktop trash ${context.trash}`);
    return undefined;
  }
  for (const store of stores)
    if (overlap(store.path))
      return refuse(
        "quarantine-in-store",
        `${relation(store.path)} the store ${store.path} (${store.label})`,
      );
  if (context.trash !== undefined && overlap(context.trash))
    return refuse("quarantine-in-trash", `${relation(context.trash)} the desktop trash ${context.trash}`);
  for (const home of context.homes)
    if (parentOf(path) === home)
      return refuse("quarantine-in-home", "is a folder at the top of your home, where your own files live");
  return undefined;
}

/**
 * Why a file we are asked to write (a report, node_exporter's textfile) may not go into `folder`
 * (absolute, normalized — real on the server), or undefined. Anywhere the user may write is fine —
 * home, `/tmp`, `/var/lib/…` — except `/` itself and the trees that hold the system (`/etc`,
 * `/usr`, `/boot`…), where a file of ours would join or replace the system's own, and a store, the
 * quarantine or the desktop trash, where it would be a stray file among an agent's sessions.
 */
export function outputFolderProblem(
  folder: string,
  context: Pick<PlaceContext, "stores" | "trash"> & { quarantine?: string },
): PlaceProblem | undefined {
  const refuse = (rule: PlaceRule, what: string): PlaceProblem => ({
    rule,
    message: `${folder} ${what}, not a folder for a file we write (rule ${rule})`,
  });
  if (folder === "/") return refuse("filesystem-root", "is the whole file system");
  // /run is left out: it holds the user's own runtime folder (/run/user/<uid>).
  const tree = SYSTEM_TREES.find((t) => t !== "/run/" && `${folder}/`.startsWith(t));
  if (tree)
    return refuse(
      "system-folder",
      `${folder}/` === tree ? "is a system folder" : `is inside the system folder ${tree.slice(0, -1)}`,
    );
  for (const store of context.stores ?? [])
    if (isWithin(folder, store.path))
      return refuse("output-in-store", `is inside the store ${store.path} (${store.label})`);
  for (const [place, what] of [
    [context.quarantine, "the quarantine"],
    [context.trash, "the desktop trash"],
  ] as const)
    if (place !== undefined && isWithin(folder, place))
      return refuse("output-in-store", `is inside ${what} ${place}`);
  return undefined;
}

/** A folder in the config must not depend on where a command happens to run. */
const relativeProblem = (raw: string) =>
  `must be an absolute path or start with ~/, got "${raw}" (rule relative-path)`;

/**
 * Why a configured store root (`sessionDir`, `stores[].root`, written `/abs` or `~/…`) is not a safe
 * place on its own, judged on the text alone (the server judges the real path again before using it).
 */
export function sessionDirProblem(raw: string, home: string): string | undefined {
  const control = controlCharacterProblem(raw, "the folder");
  if (control) return control.message;
  const expanded = expandHome(raw, home);
  if (!expanded.startsWith("/")) return relativeProblem(raw);
  return placeProblem(normalizePosix(expanded), "store", { homes: [normalizePosix(home)] })?.message;
}

/** What the places of a config are judged against, beyond the config itself. */
export interface PlaceEnvironment {
  /** For `~` in the config. */
  home: string;
  /** Normalized; on the server, real. */
  homes: readonly string[];
  /** Turns an absolute path into the one to judge: its real path on the server (default: normalized). */
  resolve?: (path: string) => string;
  trash?: string;
  /** Where sessions go when `deletion.quarantineDir` is not set. */
  defaultQuarantine?: string;
  /** The stores used when the config names none (pi's own, agentsh's). */
  defaultStores?: ReadonlyArray<{ path: string; label: string }>;
}

/** Each of a config's folders (store roots and the quarantine) judged together, every problem at its JSON path. */
export function configPlaceProblems(
  config: { sessionDir?: unknown; stores?: unknown; deletion?: unknown },
  environment: PlaceEnvironment,
): Array<{ path: string; message: string }> {
  const resolve = environment.resolve ?? normalizePosix;
  const problems: Array<{ path: string; message: string }> = [];
  /** The real (or normalized) path of a configured folder, or undefined after reporting why it has none. */
  const place = (raw: unknown, label: string) => {
    if (typeof raw !== "string") return undefined; // the schema reports the type
    const control = controlCharacterProblem(raw, "the folder");
    if (control) {
      problems.push({ path: label, message: control.message });
      return undefined;
    }
    const expanded = expandHome(raw, environment.home);
    if (!expanded.startsWith("/")) {
      problems.push({ path: label, message: relativeProblem(raw) });
      return undefined;
    }
    return { raw, label, path: resolve(expanded) };
  };
  const named = [{ kind: SESSION_DIR_KIND as string, ...place(config.sessionDir, "sessionDir") }];
  if (Array.isArray(config.stores))
    config.stores.forEach((store: unknown, i) => {
      const { kind, root } = (store ?? {}) as { kind?: unknown; root?: unknown };
      named.push({ kind: String(kind), ...place(root, `stores[${i}].root`) });
    });
  const stores = named.filter(
    (s): s is { kind: string; raw: string; label: string; path: string } => !!s.path,
  );
  /** The other stores: a store named twice (`sessionDir` and a pi entry of `stores`) is one store. */
  const others = (store: (typeof stores)[number]) =>
    stores.filter((s) => s.label !== store.label && !(s.path === store.path && s.kind === store.kind));
  const configuredQuarantine = place(
    (config.deletion as { quarantineDir?: unknown } | undefined)?.quarantineDir,
    "deletion.quarantineDir",
  );
  const quarantine = configuredQuarantine
    ? { path: configuredQuarantine.path, configured: true }
    : environment.defaultQuarantine !== undefined
      ? { path: environment.defaultQuarantine, configured: false }
      : undefined;
  const storeContext = stores.length > 0 ? stores : (environment.defaultStores ?? []);
  const report = (subject: { raw: string; label: string; path: string }, problem?: PlaceProblem) => {
    if (!problem) return;
    const resolved = normalizePosix(expandHome(subject.raw, environment.home)) !== subject.path;
    problems.push({
      path: subject.label,
      message: resolved ? `"${subject.raw}" resolves to ${problem.message}` : problem.message,
    });
  };
  for (const store of stores)
    report(
      store,
      placeProblem(store.path, "store", {
        homes: environment.homes,
        stores: others(store),
        ...(quarantine !== undefined ? { quarantine } : {}),
        ...(environment.trash !== undefined ? { trash: environment.trash } : {}),
      }),
    );
  if (configuredQuarantine)
    report(
      configuredQuarantine,
      placeProblem(configuredQuarantine.path, "quarantine", {
        homes: environment.homes,
        stores: storeContext,
        ...(environment.trash !== undefined ? { trash: environment.trash } : {}),
      }),
    );
  return problems;
}
