// A sandboxed home an attacker would love to see moved, and the hostile places to point the tool
// at, for the adversarial suites (server/safety/adversarial-*.test.ts). The home is deep
// (`<sandbox>/a/home`) so its parent is an ancestor that is not also a system folder, and every
// place a broken gate could reach holds bait it would move: old pi sessions, a folder holding
// `llm-requests.jsonl`, a workspace with old metadata — next to `~/.ssh` and `~/Documents`.
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import type { PlaceRule } from "../shared/places.js";
import { writeConfigFile } from "./config-file.js";
import { piFolder, setModified, writeSession } from "./pi-store.js";
import { snapshotTree, treeChanges, type TreeSnapshot } from "./tree-snapshot.js";

/** Long before any grace window or age limit. */
export const LONG_AGO = new Date("2025-01-01T00:00:00.000Z");

const BAIT_ID = "0b5e55ed-0000-4000-8000-000000000001";
/** The ids the bait would have as records, wherever it is found: its pi session, its two folders. */
export const BAIT_IDS = [BAIT_ID, "agentsh:proxy", "workspace:sandbox-ws"];
/** The bait's pi session, named as pi names its files. */
export const BAIT_SESSION = `2025-01-01T00-00-00-000Z_${BAIT_ID}.jsonl`;

/**
 * Old things each store kind would recognise in `dir`: a pi session flat in it (its header written
 * by hand), a folder holding `llm-requests.jsonl` (agentsh) and one with valid metadata (workspace).
 */
function plantBait(dir: string) {
  const stamp = LONG_AGO.toISOString();
  const header = {
    type: "session",
    version: 3,
    id: BAIT_ID,
    timestamp: stamp,
    cwd: "/bait",
  };
  const files: Record<string, string> = {
    [BAIT_SESSION]: `${JSON.stringify(header)}\n`,
    "proxy/llm-requests.jsonl": '{"request":1}\n',
    "sandbox-ws/.metadata.json": JSON.stringify({ created_at: stamp, updated_at: stamp }),
    "sandbox-ws/build.log": "ok\n",
  };
  mkdirSync(join(dir, "proxy"), { recursive: true });
  mkdirSync(join(dir, "sandbox-ws"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  for (const name of [...Object.keys(files), "proxy", "sandbox-ws"]) setModified(join(dir, name), LONG_AGO);
}

export interface HostileSandbox {
  /** Everything the tool may touch in these tests is below it. */
  root: string;
  /** `$HOME`: `<root>/a/home`. */
  home: string;
  /** `<root>/a`: an ancestor of home that is no system folder. */
  ancestor: string;
  /** A folder full of bait, for the current folder in the `.` cases. */
  work: string;
  /** pi's default store, with old sessions. */
  piStore: string;
  /** A `--cwd--` folder of it: a root inside the store. */
  piNamespace: string;
  /** agentsh's default store, with one session. */
  agentshStore: string;
  /** A workspace store: `ws-1` is in use, but holds a folder with old metadata of its own. */
  workspaces: string;
  /** The default quarantine, holding an earlier operation's folder (with bait). */
  quarantine: string;
  oldOperation: string;
  /** The desktop trash, holding a trashed folder (with bait). */
  trash: string;
  trashedFolder: string;
  /** Symlinks in the sandbox to `/`, to home, to the ancestor, to `/etc` and to the workspace `ws-1`. */
  links: { root: string; home: string; ancestor: string; etc: string; workspace: string };
  /** Every entry under `root`. */
  snapshot: () => TreeSnapshot;
}

/**
 * Builds the sandbox and points `HOME`, `PI_CODING_AGENT_DIR` and `XDG_DATA_HOME` at it (the test
 * file's own isolated home, from test-support/isolate-home.ts, stays around it).
 */
export function hostileSandbox(): HostileSandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-hostile-")));
  const ancestor = join(root, "a");
  const home = join(ancestor, "home");
  const agentDir = join(home, ".pi", "agent");
  process.env.HOME = home;
  process.env.PI_CODING_AGENT_DIR = agentDir;
  process.env.XDG_DATA_HOME = join(home, ".local", "share");

  // What must never move.
  mkdirSync(join(home, ".ssh"), { recursive: true, mode: 0o700 });
  writeFileSync(join(home, ".ssh", "id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY-----\n", { mode: 0o600 });
  mkdirSync(join(home, "Documents"));
  writeFileSync(join(home, "Documents", "report.txt"), "Q3 numbers\n");
  mkdirSync(join(home, "code", "app"), { recursive: true });
  writeFileSync(join(home, "code", "app", "events.jsonl"), '{"event":"click"}\n{"event":"scroll"}\n');
  writeFileSync(join(home, "code", "app", "llm-requests.jsonl"), '{"request":1}\n');
  mkdirSync(join(home, "code", "sandbox"));
  writeFileSync(
    join(home, "code", "sandbox", ".metadata.json"),
    '{"created_at":"2025-01-01T00:00:00Z","updated_at":"2025-01-01T00:00:00Z"}',
  );
  // Bait wherever a hostile root could point: home itself, its ancestor, the current folder.
  plantBait(home);
  plantBait(ancestor);
  const work = join(root, "work");
  plantBait(work);

  const piStore = join(agentDir, "sessions");
  for (const cwd of ["/work/app", "/work/app", "/work/lib"])
    setModified(writeSession(piStore, cwd, 2).getSessionFile()!, LONG_AGO);
  const piNamespace = join(piStore, piFolder("/work/app"));

  const agentshStore = join(home, ".agentsh", "sessions");
  mkdirSync(join(agentshStore, "s1"), { recursive: true });
  writeFileSync(join(agentshStore, "s1", "llm-requests.jsonl"), '{"request":1}\n');
  setModified(join(agentshStore, "s1", "llm-requests.jsonl"), LONG_AGO);

  const workspaces = join(home, "workspaces");
  const inUse = join(workspaces, "ws-1");
  mkdirSync(join(inUse, "cache"), { recursive: true });
  const now = new Date().toISOString();
  writeFileSync(join(inUse, ".metadata.json"), JSON.stringify({ created_at: now, updated_at: now }));
  const old = LONG_AGO.toISOString();
  writeFileSync(join(inUse, "cache", ".metadata.json"), JSON.stringify({ created_at: old, updated_at: old }));
  writeFileSync(join(inUse, "cache", "blob"), "cached\n");
  for (const path of ["cache/.metadata.json", "cache/blob", "cache"])
    setModified(join(inUse, path), LONG_AGO);

  const quarantine = join(agentDir, "session-trash");
  const oldOperation = join(quarantine, "20250101-000000-earlier");
  plantBait(oldOperation);
  const trash = join(process.env.XDG_DATA_HOME, "Trash");
  const trashedFolder = join(trash, "files", "old-project");
  plantBait(trashedFolder);
  mkdirSync(join(trash, "info"), { recursive: true });

  const linkDir = join(root, "links");
  mkdirSync(linkDir);
  const link = (name: string, target: string) => {
    symlinkSync(target, join(linkDir, name));
    return join(linkDir, name);
  };
  const links = {
    root: link("to-root", "/"),
    home: link("to-home", home),
    ancestor: link("to-ancestor", ancestor),
    etc: link("to-etc", "/etc"),
    workspace: link("to-workspace", inUse),
  };
  // Folder times last: writing into a folder moves its mtime.
  utimesSync(workspaces, LONG_AGO, LONG_AGO);

  writeBaitConfig();
  return {
    root,
    home,
    ancestor,
    work,
    piStore,
    piNamespace,
    agentshStore,
    workspaces,
    quarantine,
    oldOperation,
    trash,
    trashedFolder,
    links,
    snapshot: () => snapshotTree([root]),
  };
}

/**
 * A config with a policy that removes everything it may (no age to speak of, no session kept for
 * being recent, an emptied store allowed, into the quarantine) plus `extra`: a broken gate would
 * have every old session it finds moved.
 */
export function baitConfig(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    retention: { maxAgeDays: 1, minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
    ...extra,
    deletion: { target: "quarantine", ...(extra.deletion as object | undefined) },
  };
}

/** Writes `baitConfig(extra)` as the default config file. */
export const writeBaitConfig = (extra: Record<string, unknown> = {}) => writeConfigFile(baitConfig(extra));

/** What a refusal must name: the rule, and the real path it judged (none for `""` and `.`). */
export interface Refusal {
  rule: PlaceRule;
  resolved?: string;
  /** Written relative (`""`, `.`, `../x`): the config refuses it for that alone. */
  relative?: boolean;
}

/** A path the tool must refuse as a store root, as given to it. */
export interface HostilePlace extends Refusal {
  name: string;
  given: string;
  /** Outside the sandbox: destructive commands run with --dry-run only, so a broken gate moves nothing of this machine. */
  system: boolean;
  /** A symlink: its text is harmless, only its real path is refused. */
  linked: boolean;
}

/** The account's own home folder when it is not the sandbox's `$HOME` (it stays off limits), else none. */
function accountHome(): string | undefined {
  try {
    const home = realpathSync(userInfo().homedir);
    return home === "/" ? undefined : home;
  } catch {
    return undefined; // no passwd entry (a container's arbitrary uid)
  }
}

/** How a place is special: outside the sandbox, a symlink, written relative. */
type Trait = "system" | "linked" | "relative";
/** A place: its name, its path as given, the rule and the real path it is judged as, its traits. */
type Row = [string, string, PlaceRule, string | undefined, ...Trait[]];

/** The places no store root may be. */
export function hostileStorePlaces(box: HostileSandbox): HostilePlace[] {
  const { home, ancestor, links } = box;
  const account = accountHome();
  const accountRow: Row[] = account
    ? [["the account's own home (not $HOME)", account, "home", account, "system"]]
    : [];
  const rows: Row[] = [
    ["/", "/", "filesystem-root", "/", "system"],
    ["/etc", "/etc", "system-folder", "/etc", "system"],
    ["/usr", "/usr", "system-folder", "/usr", "system"],
    ...accountRow,
    ["a symlink to /", links.root, "filesystem-root", "/", "system", "linked"],
    ["a symlink to /etc", links.etc, "system-folder", "/etc", "system", "linked"],
    ["home", home, "home", home],
    ["home, spelled ~/code/..", `${home}/code/..`, "home", home],
    ["an ancestor of home", ancestor, "above-home", ancestor],
    ["../a/home, relative to the current folder", "../a/home", "home", home, "relative"],
    ["a symlink to home", links.home, "home", home, "linked"],
    ["a symlink to an ancestor of home", links.ancestor, "above-home", ancestor, "linked"],
    ['""', "", "empty-path", undefined, "relative"],
    ['"." (the current folder, full of bait)', ".", "empty-path", undefined, "relative"],
  ];
  return rows.map(place);
}

const place = ([name, given, rule, resolved, ...traits]: Row): HostilePlace => ({
  name,
  given,
  rule,
  ...(resolved !== undefined ? { resolved } : {}),
  system: traits.includes("system"),
  linked: traits.includes("linked"),
  relative: traits.includes("relative"),
});

export type StoreKind = "pi" | "agentsh" | "workspace";

/** The store roots handed to an entry point (all of its one kind), and what must refuse them. */
export interface StoreAttempt extends Refusal {
  roots: string[];
  system: boolean;
}

/**
 * Every hostile place alone, plus the places that are hostile together: a root inside another
 * root of the same kind (the inner one is refused: its sessions would be found twice), inside the
 * quarantine, inside the desktop trash.
 */
export function hostileStoreAttempts(box: HostileSandbox) {
  const nested: Record<StoreKind, [string, string]> = {
    pi: [box.piStore, box.piNamespace],
    agentsh: [box.agentshStore, join(box.agentshStore, "s1")],
    // ws-1 is in use; its cache/ has old metadata of its own: pruned as a root, it would be moved.
    workspace: [box.workspaces, join(box.workspaces, "ws-1")],
  };
  const alone = (roots: string[], rule: PlaceRule, resolved: string) => () => ({
    roots,
    rule,
    resolved,
    system: false,
  });
  return [
    ...hostileStorePlaces(box).map(({ name, given, linked: _, ...refusal }) => ({
      name,
      attempt: (): StoreAttempt => ({ roots: [given], ...refusal }),
    })),
    {
      name: "a root inside another root",
      attempt: (kind: StoreKind): StoreAttempt => ({
        roots: nested[kind],
        rule: "store-in-store",
        resolved: nested[kind][1],
        system: false,
      }),
    },
    {
      name: "a root inside the quarantine",
      attempt: alone([box.oldOperation], "store-in-trash", box.oldOperation),
    },
    {
      name: "a root inside the desktop trash",
      attempt: alone([box.trashedFolder], "store-in-trash", box.trashedFolder),
    },
  ];
}

/** Control characters a path must never hold, with their names: NUL, a line feed, ESC, DEL. */
export const CONTROL_CHARACTERS: ReadonlyArray<[string, string]> = [
  ["\u0000", "NUL"],
  ["\n", "a line feed"],
  ["\u001b", "ESC"],
  ["\u007f", "DEL"],
];

/** A folder no workspace metadata may be written into (`touch`, `createSessionMetadata`…), and the refusal. */
export interface WorkspaceAttempt extends Refusal {
  name: string;
  given: string;
  /** Outside the sandbox: tried only as an unprivileged user, who could write none of it. */
  system: boolean;
}

/**
 * Every hostile place as the workspace itself (a symlink judged as what it points to), and the
 * workspaces whose root is hostile: in home, in its ancestor, in the quarantine, in the desktop
 * trash, in pi's store, and a symlink to an ordinary workspace (a write through it lands there).
 */
export function hostileWorkspaceAttempts(box: HostileSandbox): WorkspaceAttempt[] {
  const inRoot = (name: string, root: string, rule: PlaceRule): WorkspaceAttempt => ({
    name,
    given: join(root, "sandbox-ws"),
    rule,
    resolved: root,
    system: false,
  });
  return [
    ...hostileStorePlaces(box).map(({ linked: _, ...attempt }) => attempt),
    inRoot("a workspace directly in home", box.home, "home"),
    inRoot("a workspace in an ancestor of home", box.ancestor, "above-home"),
    inRoot("a workspace in the quarantine", box.oldOperation, "store-in-trash"),
    inRoot("a workspace in the desktop trash", box.trashedFolder, "store-in-trash"),
    {
      name: "a folder of pi's store",
      given: box.piNamespace,
      rule: "store-in-store",
      resolved: box.piStore,
      system: false,
    },
    {
      name: "a symlink to an ordinary workspace",
      given: box.links.workspace,
      rule: "symlink",
      resolved: box.links.workspace,
      system: false,
    },
  ];
}

/** A config naming a hostile folder: `key` set to `value` (`/…policy KEY VALUE`), reported at `at`. */
export interface HostileConfig extends Refusal {
  name: string;
  key: "sessionDir" | "stores" | "deletion.quarantineDir";
  value: unknown;
  at: string;
  system: boolean;
  /**
   * The text alone is refused (`/`, home, `""`…; a symlink is refused only once resolved): commands
   * then take the store root as "unknown", and say only that it "cannot be trusted" (a defect).
   */
  textRefused: boolean;
}

/** The config's own JSON for a case: the bait config's policy plus the hostile folder. */
export function configOf(c: HostileConfig): Record<string, unknown> {
  return c.key === "deletion.quarantineDir" ? { deletion: { quarantineDir: c.value } } : { [c.key]: c.value };
}

/** Every folder a config names, at every hostile place. */
export function hostileConfigs(box: HostileSandbox): HostileConfig[] {
  const places = hostileStorePlaces(box);
  const stores = (
    key: "sessionDir" | "stores",
    label: string,
    at: string,
    value: (root: string) => unknown,
  ) =>
    places.map(({ name, given, linked, ...refusal }): HostileConfig => ({
      name: `${label}: ${name}`,
      key,
      value: value(given),
      at,
      ...refusal,
      textRefused: !linked,
    }));
  const { home, ancestor, links, piStore, trash } = box;
  const quarantines: Row[] = [
    ["/", "/", "filesystem-root", "/", "system"],
    ["/etc", "/etc", "system-folder", "/etc", "system"],
    ["a symlink to /", links.root, "filesystem-root", "/", "system", "linked"],
    ["home", home, "home", home],
    ["~/", "~/", "home", home],
    ["a symlink to home", links.home, "home", home, "linked"],
    ["an ancestor of home", ancestor, "above-home", ancestor],
    ["~/Documents (the top of home)", "~/Documents", "quarantine-in-home", join(home, "Documents")],
    ["inside the pi store", join(piStore, "q"), "quarantine-in-store", join(piStore, "q")],
    ["inside the desktop trash", join(trash, "q"), "quarantine-in-trash", join(trash, "q")],
  ];
  // A folder whose text holds a control character: refused for its text alone, wherever it points.
  const controls = CONTROL_CHARACTERS.flatMap(([char, name]) =>
    (["sessionDir", "stores"] as const).map((key): HostileConfig => ({
      name: `${key}: a folder whose name holds ${name}`,
      key,
      value:
        key === "stores" ? [{ kind: "agentsh", root: `${box.work}/a${char}b` }] : `${box.work}/a${char}b`,
      at: key === "stores" ? "stores[0].root" : key,
      rule: "control-character",
      system: false,
      textRefused: true,
    })),
  );
  return [
    ...stores("sessionDir", "sessionDir", "sessionDir", (root) => root),
    ...stores("stores", "stores (agentsh)", "stores[0].root", (root) => [{ kind: "agentsh", root }]),
    {
      name: "stores: a pi root inside another",
      key: "stores",
      value: [box.piStore, box.piNamespace].map((root) => ({ kind: "pi", root })),
      at: "stores[1].root",
      rule: "store-in-store",
      resolved: box.piNamespace,
      system: false,
      textRefused: false,
    },
    {
      name: "sessionDir: inside the quarantine",
      key: "sessionDir",
      value: box.oldOperation,
      at: "sessionDir",
      rule: "store-in-trash",
      resolved: box.oldOperation,
      system: false,
      textRefused: false,
    },
    ...quarantines.map(place).map(({ name, given, linked: _, ...refusal }): HostileConfig => ({
      name: `deletion.quarantineDir: ${name}`,
      key: "deletion.quarantineDir",
      value: given,
      at: "deletion.quarantineDir",
      ...refusal,
      textRefused: false,
    })),
    ...controls,
  ];
}

/**
 * The refusal names the rule and the real path it judged. In the config a relative path is refused
 * as written (it must be absolute); as a flag, `""` and `.` are, for naming the current folder implicitly.
 */
export function expectNamed(text: string, refusal: Refusal, written: "flag" | "config") {
  if (written === "config" && refusal.relative)
    expect(text).toMatch(/must be an absolute path or start with ~\//);
  else if (refusal.rule === "empty-path")
    expect(text).toMatch(/is empty; give the folder's path|names the current folder only implicitly/);
  else if (refusal.rule === "control-character")
    expect(text).toMatch(/holds the control character U\+[0-9A-F]{4} .*\(rule control-character\)/);
  else {
    expect(text).toContain(`(rule ${refusal.rule})`);
    expect(text).toContain(`${refusal.resolved} `);
  }
}

/** Cases as `[name, case]` rows for `it.each(…)("… %s …")`: `$name` would quote and shorten the name. */
export const byName = <T extends { name: string }>(cases: readonly T[]) =>
  cases.map((c) => [c.name, c] as const);

/** Runs `attempt` and asserts that nothing under the sandbox changed: no file moved, written or made. */
export async function unchangedBy<T>(box: HostileSandbox, attempt: () => T | Promise<T>): Promise<T> {
  const before = box.snapshot();
  const result = await attempt();
  expect(treeChanges(before, box.snapshot())).toEqual([]);
  return result;
}
