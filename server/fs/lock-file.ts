// One holder at a time: an exclusive lock file holding the owner's pid and thread. A lock left
// behind by a process that is gone (kill -9, power loss) is taken over instead of blocking forever.
// The thread matters because the pi extension runs its tasks on worker threads of pi's process:
// two of them share a pid, and each must still wait for the other.
import { rmSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { threadId } from "node:worker_threads";
import { ConflictError } from "../errors.js";
import { readSmallTextFile } from "./read-small-file.js";
import { ensurePrivateDir } from "./private-files.js";

/** Locks this thread holds: one naming our pid and thread but not in here is from an earlier run. */
const held = new Set<string>();

/** A lock file with no pid yet may be one another process is writing this very moment. */
const EMPTY_LOCK_GRACE_MS = 5000;

export class LockedError extends ConflictError {
  override name = "LockedError";
  constructor(
    readonly path: string,
    readonly ownerPid: number,
  ) {
    super(
      `another session-retention process${ownerPid ? ` (pid ${ownerPid})` : ""} holds ${path}; try again when it is done`,
      "locked",
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

interface Owner {
  pid: number;
  /** Absent in a lock written before threads were recorded. */
  thread?: number;
}

function ownerOf(path: string): Owner | undefined {
  try {
    const [pid, thread] = readSmallTextFile(path, { maxBytes: 1024, what: "lock file" })
      .trim()
      .split(" ")
      .map(Number);
    if (!Number.isInteger(pid) || pid! <= 0) return undefined;
    return Number.isInteger(thread) ? { pid: pid!, thread: thread! } : { pid: pid! };
  } catch {
    return undefined;
  }
}

/** Whether another thread of this process holds the lock: it took it since this process started. */
function takenThisRun(path: string): boolean {
  try {
    return statSync(path).mtimeMs >= Date.now() - process.uptime() * 1000 - 1000;
  } catch {
    return false;
  }
}

function isHeld(path: string, owner: Owner | undefined): boolean {
  if (owner === undefined) return isFresh(path);
  if (owner.pid !== process.pid) return isProcessAlive(owner.pid);
  // Our own pid: pids repeat across runs in containers, so it counts only if taken in this run.
  return owner.thread === threadId ? held.has(path) : owner.thread !== undefined && takenThisRun(path);
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
  ensurePrivateDir(dirname(path));
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(path, `${process.pid} ${threadId}\n`, { flag: "wx", mode: 0o600 });
      held.add(path);
      return () => {
        held.delete(path);
        const owner = ownerOf(path);
        if (owner?.pid === process.pid && owner.thread === threadId) rmSync(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = ownerOf(path);
      // A lock whose owner is alive stays. One with a dead owner is stale, and so is one with no
      // pid that is older than a moment (a crash between create and write). Removing it and
      // retrying the exclusive create means that of two takers at once, only one wins.
      if (isHeld(path, owner)) throw new LockedError(path, owner?.pid ?? 0);
      rmSync(path, { force: true });
    }
  }
  throw new LockedError(path, ownerOf(path)?.pid ?? 0);
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
