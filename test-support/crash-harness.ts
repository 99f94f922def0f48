// The crash harness's shared parts (docs/safety.md G9): a sandboxed home per trial, a child process
// running one engine operation that is SIGKILLed at a chosen crash point or from outside at a
// moment (test-support/crash-child.ts), and the property every trial checks afterwards — each
// session is whole in exactly one place: all of its parts at their original paths, byte-identical
// with their times, or all of them in the trash under one entry; and nothing in the quarantine or
// the desktop trash that no entry names. Used by server/delete/crash-recovery.test.ts (pi),
// server/delete/bundle-crash-recovery.test.ts (Claude Code and Gemini CLI sessions with bundles) and
// server/delete/codex-crash-recovery.test.ts (Codex sessions, deleted through `codex delete`).
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import type { Recovery, TrashEntry } from "../shared/trash.js";
import { listTrash, recover } from "../server/delete/deletion-engine.js";
import { homeTrashDir } from "../server/delete/movers.js";
import { isProcessAlive, LockedError } from "../server/fs/lock-file.js";
import { statePaths } from "../server/state/state-dir.js";

export const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

/**
 * How a child dies: at its N-th crash point, or (crashAt -1) killed by the parent after some ms or
 * as soon as `killWhen` holds (looked at every few ms).
 */
export interface Kill {
  crashAt: number;
  killAfterMs?: number;
  killWhen?: () => boolean;
}

/** A fresh home for one trial: HOME, pi's agent dir, the XDG data dir (the desktop trash), TMPDIR, Claude's folder. */
export function crashHome(prefix = "sr-crash-") {
  const home = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    PI_CODING_AGENT_DIR: join(home, ".pi", "agent"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    CLAUDE_CONFIG_DIR: join(home, ".claude"),
    TMPDIR: join(home, "tmp"),
  };
  mkdirSync(env.TMPDIR!, { recursive: true });
  return { home, env, engine: { actor: "cli" as const, env } };
}

/**
 * Runs one operation in a child (`store` is `<kind>:<root>`), killed as `kill` says. Resolves
 * whether it was killed and, when it lived, how many crash points it passed.
 */
export async function runChild(
  action: "delete" | "recover" | "restore",
  store: string,
  kill: Kill,
  env: NodeJS.ProcessEnv,
  target?: "quarantine" | "trash",
): Promise<{ killed: boolean; points?: number }> {
  const child = spawn(
    process.execPath,
    ["dist/test-support/crash-child.js", action, store, String(kill.crashAt), ...(target ? [target] : [])],
    { env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const timer =
    kill.killAfterMs !== undefined ? setTimeout(() => child.kill("SIGKILL"), kill.killAfterMs) : undefined;
  const watch = kill.killWhen && setInterval(() => kill.killWhen!() && child.kill("SIGKILL"), 3);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once("exit", (c, s) => resolve([c, s])),
  );
  clearTimeout(timer);
  clearInterval(watch);
  if (signal === "SIGKILL") return { killed: true };
  if (code !== 0) throw new Error(`${action} child failed (${code}): ${output}`);
  return { killed: false, points: (JSON.parse(output) as { points: number }).points };
}

/** How long an empty lock file counts as held (server/fs/lock-file.ts, EMPTY_LOCK_GRACE_MS). */
const EMPTY_LOCK_GRACE_MS = 5000;

/**
 * Recovery after a kill, run as the next command would run it. A kill between the lock file's
 * create and its write leaves it empty, and an empty lock counts as held for a moment (another
 * process may be about to write its pid): like a user trying again, this waits the moment out and
 * counts it in `seen.emptyLocks`. A lock held by anything else fails the trial, with what is in it.
 */
export async function recoverAfterKill(
  engine: { actor: "cli"; env: NodeJS.ProcessEnv },
  where: string,
  seen?: { emptyLocks: number },
): Promise<Recovery[]> {
  try {
    return recover(engine);
  } catch (error) {
    if (!(error instanceof LockedError)) throw error;
    let content: string;
    try {
      content = readFileSync(error.path, "utf8");
    } catch {
      content = "(gone)";
    }
    if (content !== "") {
      const pid = Number(content.split(" ")[0]);
      throw new Error(
        `${where}: the deletion lock is held after the kill: "${content.trim()}" (pid ${pid} ${isProcessAlive(pid) ? "alive" : "not alive"})`,
        { cause: error },
      );
    }
    if (seen) seen.emptyLocks++;
    await new Promise((resolve) => setTimeout(resolve, EMPTY_LOCK_GRACE_MS + 200));
    return recover(engine);
  }
}

/** A session as the harness sees it: its own file (or folder) and the other parts of its bundle. */
export interface Unit {
  id: string;
  path: string;
  bundle: readonly string[];
}

/**
 * One part as it is on disk: every entry at or below it (relative path, "" for the part itself) —
 * a file's size, content hash and mtime (ns), a folder's mtime (ns), a link's target. Times are
 * part of it: a move must keep them (a rename does), and a restored session must look untouched.
 */
export function snapshotPart(path: string): Map<string, string> {
  const entries = new Map<string, string>();
  const visit = (at: string, relative: string) => {
    const stat = lstatSync(at, { bigint: true });
    if (stat.isDirectory()) {
      entries.set(relative, `folder mtime ${stat.mtimeNs}`);
      for (const name of readdirSync(at).sort()) visit(join(at, name), `${relative}/${name}`);
    } else if (stat.isFile())
      entries.set(relative, `file ${stat.size} B sha256 ${sha(at)} mtime ${stat.mtimeNs}`);
    else entries.set(relative, `other mode ${stat.mode}`);
  };
  visit(path, "");
  return entries;
}

export type Baseline = Map<string, Map<string, string>>;

/** Every part of every unit as it is now: what the trials compare with. */
export function baselineOf(units: readonly Unit[]): Baseline {
  return new Map(units.flatMap((u) => [u.path, ...u.bundle]).map((path) => [path, snapshotPart(path)]));
}

const exists = (path: string) => lstatSync(path, { throwIfNoEntry: false }) !== undefined;

/**
 * The property: every unit is whole in exactly one place. Either every part is at its original
 * path as it was, and no entry holds it in the trash; or none is, and exactly one in-trash entry
 * holds all of them — its own copy and one sidecar per bundle part, each as it was. No entry is
 * left open, in conflict or gone. Returns the in-trash entries.
 */
export function expectWhole(
  units: readonly Unit[],
  baseline: Baseline,
  entries: readonly TrashEntry[],
  where: string,
): TrashEntry[] {
  expect(
    entries.filter((e) => !["in-trash", "not-moved", "restored"].includes(e.state)),
    `${where}: every entry ends in a definite state`,
  ).toEqual([]);
  const inTrash = entries.filter((e) => e.state === "in-trash");
  for (const unit of units) {
    const parts = [unit.path, ...unit.bundle];
    const home = parts.filter(exists);
    const held = inTrash.filter((e) => e.originalPath === unit.path);
    const what = `${where}: ${unit.id}`;
    if (held.length === 0) {
      expect(home, `${what} is in place: every part of it`).toEqual(parts);
      for (const part of parts)
        expect(snapshotPart(part), `${what}: ${part} as it was`).toEqual(baseline.get(part));
      continue;
    }
    expect(held.length, `${what} is in the trash once`).toBe(1);
    expect(home, `${what} is in the trash: no part of it is left in place`).toEqual([]);
    const [entry] = held as [TrashEntry];
    expect(snapshotPart(entry.location!), `${what}: its trashed copy as it was`).toEqual(
      baseline.get(unit.path),
    );
    expect(entry.sidecars.map((s) => s.from).sort(), `${what}: its entry names every part`).toEqual(
      [...unit.bundle].sort(),
    );
    for (const { from, to } of entry.sidecars)
      expect(snapshotPart(to), `${what}: ${from} in the trash as it was`).toEqual(baseline.get(from));
  }
  return inTrash;
}

/**
 * What is in the quarantine and the desktop trash that no in-trash entry names: a part left
 * behind there would be lost to the user (nothing lists, restores or purges it). Folders on the way
 * to a named copy are fine; anything else — a file, or a folder, even an empty one — is reported.
 */
export function unnamedInTrash(entries: readonly TrashEntry[], env: NodeJS.ProcessEnv): string[] {
  const held = entries.filter((e) => e.state === "in-trash");
  const named = new Set(
    held.flatMap((e) => [...(e.location ? [e.location] : []), ...e.sidecars.map((s) => s.to)]),
  );
  const infos = new Set(held.flatMap((e) => (e.trashInfo ? [e.trashInfo] : [])));
  const unnamed: string[] = [];
  const onTheWay = (folder: string) => [...named].some((path) => path.startsWith(`${folder}/`));
  const visit = (folder: string) => {
    let names: string[];
    try {
      names = readdirSync(folder).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(folder, name);
      if (named.has(path)) continue;
      if (onTheWay(path) && lstatSync(path).isDirectory()) visit(path);
      else unnamed.push(path);
    }
  };
  visit(statePaths(env).quarantine);
  visit(join(homeTrashDir(env), "files"));
  for (const name of (() => {
    try {
      return readdirSync(join(homeTrashDir(env), "info")).sort();
    } catch {
      return [];
    }
  })()) {
    const info = join(homeTrashDir(env), "info", name);
    if (!infos.has(info)) unnamed.push(info);
  }
  return unnamed;
}

/** Every file below `folder` (relative), for a diagnosis; none when it is not there. */
function filesBelow(folder: string): string[] {
  const found: string[] = [];
  const visit = (at: string) => {
    let names: string[];
    try {
      names = readdirSync(at).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(at, name);
      if (lstatSync(path).isDirectory()) visit(path);
      else found.push(path);
    }
  };
  visit(folder);
  return found;
}

/**
 * What a failing trial left, in words: each unit's parts (in place or not, and where a file of the
 * same name is in the quarantine or the desktop trash), every entry as the ledgers have it, the
 * audit log, and the processes still running. Kept beside the sandbox, so a rare failure (a
 * timing no rerun gives back) can be read afterwards rather than guessed at.
 */
export function diagnosis(units: readonly Unit[], env: NodeJS.ProcessEnv, error: unknown): string {
  const held = [...filesBelow(statePaths(env).quarantine), ...filesBelow(homeTrashDir(env))];
  const lines = [`failure: ${(error as Error).stack ?? String(error)}`, "", "units:"];
  for (const unit of units)
    for (const part of [unit.path, ...unit.bundle]) {
      const name = part.slice(part.lastIndexOf("/") + 1);
      const copies = held.filter((path) => path.endsWith(`/${name}`));
      lines.push(
        `  ${unit.id} ${exists(part) ? "IN PLACE" : "absent  "} ${part}${copies.length ? ` | held: ${copies.join(", ")}` : ""}`,
      );
    }
  lines.push("", "entries:");
  try {
    for (const e of listTrash({ actor: "cli", env }).entries) lines.push(`  ${JSON.stringify(e)}`);
  } catch (listing) {
    lines.push(`  (not listed: ${(listing as Error).message})`);
  }
  lines.push("", "audit log:");
  try {
    lines.push(readFileSync(statePaths(env).auditLog, "utf8"));
  } catch {
    lines.push("  (none)");
  }
  lines.push("", "processes:", spawnSync("ps", ["-eo", "pid,ppid,etimes,args"], { encoding: "utf8" }).stdout);
  return lines.join("\n");
}

/**
 * Runs one trial in its sandbox `home`; removes the sandbox when the trial holds. When it fails,
 * the sandbox stays with a `DIAGNOSIS.txt` beside it (see `diagnosis`), and the error says where.
 */
export async function inSandbox(
  home: string,
  units: readonly Unit[],
  env: NodeJS.ProcessEnv,
  trial: () => Promise<void>,
): Promise<void> {
  try {
    await trial();
  } catch (error) {
    const file = join(home, "DIAGNOSIS.txt");
    try {
      writeFileSync(file, diagnosis(units, env, error));
      // The test file's own home (test-support/isolate-home.ts) is kept too: the sandbox is in it.
      if (process.env.HOME) writeFileSync(join(process.env.HOME, "KEEP_FOR_DIAGNOSIS"), `${file}\n`);
    } catch {
      // The diagnosis is a help; the failure itself is what is reported.
    }
    throw new Error(`${(error as Error).message}\n(sandbox kept: ${home}; what it holds: ${file})`, {
      cause: error,
    });
  }
  rmSync(home, { recursive: true, force: true });
}
