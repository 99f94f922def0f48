// Tests of what a user may not do to a file need a user permissions apply to. Root may move
// anything, so when the tests run as root these run the command as uid 65534 (setpriv, its other
// groups dropped) in a sandbox owned by it, and make a path off limits by giving it to root, as
// `sudo claude` leaves a session's folder. Run as anyone else, the tests' own user is the user, and
// a path is made off limits by taking away its write right.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { chmodSync, chownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Whether the tests run as root (then the user is uid 65534). */
export const asRoot = process.platform === "linux" && process.getuid?.() === 0;

/** The user the commands run as. */
export const USER = asRoot ? { uid: 65534, gid: 65534 } : { uid: process.getuid!(), gid: process.getgid!() };

/** What a child process is spawned with to run as the user (nothing when that is the tests' own). */
export const SPAWN_AS = asRoot ? USER : undefined;

/** Every entry below `path` (itself included) owned by `uid`. */
function chownTree(path: string, uid: number, gid: number) {
  chownSync(path, uid, gid);
  if (lstatSync(path).isDirectory())
    for (const name of readdirSync(path)) chownTree(join(path, name), uid, gid);
}

/** The environment of a sandbox's user: its home, agent dir, desktop trash and temporary folder. */
export interface Sandbox {
  folder: string;
  home: string;
  env: NodeJS.ProcessEnv;
  /** Gives everything in the sandbox to its user (call after writing into it as root). */
  own: () => void;
  /** Removes it (after `allow` of what was made off limits). */
  remove: () => void;
}

export function userSandbox(): Sandbox {
  // Not in the test's own temporary home when root: that one is root's (0700), and nobody may enter it.
  const folder = mkdtempSync(join(asRoot ? "/tmp" : tmpdir(), "sr-user-"));
  const home = join(folder, "home");
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_DATA_HOME: join(home, ".local", "share"),
    PI_CODING_AGENT_DIR: join(home, ".pi", "agent"),
    TMPDIR: join(home, "tmp"),
  };
  mkdirSync(env.TMPDIR, { recursive: true });
  return {
    folder,
    home,
    env,
    own: () => {
      if (asRoot) chownTree(folder, USER.uid, USER.gid);
    },
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}

/** Makes `path` a folder the user may not write in: root's (as `sudo` leaves it), or without its write right. */
export function forbid(path: string) {
  if (asRoot) chownTree(path, 0, 0);
  chmodSync(path, asRoot ? 0o755 : 0o555);
}

/** Undoes `forbid`: the user's again, and writable. */
export function allow(path: string) {
  if (asRoot) chownTree(path, USER.uid, USER.gid);
  chmodSync(path, 0o755);
}

/** The fix a refusal of `forbid`'s path names: a chown to the user when root has it, else a chmod. */
export const FIX = asRoot ? /sudo chown (-R )?"\$USER" / : /chmod (-R )?u\+w/;

/** Runs `node args…` as the user, in `env`. */
export function runAsUser(args: readonly string[], env: NodeJS.ProcessEnv): SpawnSyncReturns<string> {
  const [command, ...rest] = asRoot
    ? ["setpriv", `--reuid=${USER.uid}`, `--regid=${USER.gid}`, "--clear-groups", process.execPath, ...args]
    : [process.execPath, ...args];
  return spawnSync(command!, rest, { env, encoding: "utf8" });
}
