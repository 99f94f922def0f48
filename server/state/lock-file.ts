// One process at a time: an exclusive lock file holding the owner's pid. A lock left behind by a
// process that is gone (kill -9, power loss) is taken over instead of blocking forever.
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { UserError } from "../errors.js";

/** Locks this process holds: a lock file naming our own pid but not in here is from an earlier run. */
const held = new Set<string>();

/** A lock file with no pid yet may be one another process is writing this very moment. */
const EMPTY_LOCK_GRACE_MS = 5000;

export class LockedError extends UserError {
  override name = "LockedError";
  constructor(
    readonly path: string,
    readonly ownerPid: number,
  ) {
    super(
      `another session-retention process${ownerPid ? ` (pid ${ownerPid})` : ""} holds ${path}; try again when it is done`,
    );
  }
}

/** Whether a process exists. EPERM means it exists but belongs to someone else. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function ownerOf(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, "utf8"), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isFresh(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs < EMPTY_LOCK_GRACE_MS;
  } catch {
    return false;
  }
}

/** Takes the lock or throws `LockedError`; returns the function that releases it. */
export function acquireLock(path: string): () => void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: "wx", mode: 0o600 });
      held.add(path);
      return () => {
        held.delete(path);
        if (ownerOf(path) === process.pid) rmSync(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = ownerOf(path);
      // A lock whose owner is alive stays (our own pid counts only if we took it: pids repeat
      // across runs in containers). One with a dead owner is stale, and so is one with no pid that
      // is older than a moment (a crash between create and write). Removing it and retrying the
      // exclusive create means that of two processes taking over at once, only one wins.
      if (
        owner === undefined ? isFresh(path) : owner === process.pid ? held.has(path) : isProcessAlive(owner)
      )
        throw new LockedError(path, owner ?? 0);
      rmSync(path, { force: true });
    }
  }
  throw new LockedError(path, ownerOf(path) ?? 0);
}

/** Runs `work` while holding the lock. */
export function withLock<T>(path: string, work: () => T): T {
  const release = acquireLock(path);
  try {
    return work();
  } finally {
    release();
  }
}
