import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { threadId, Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { mkfifo, neverBlockedBy } from "../../test-support/fifo.js";
import { acquireLock, LockedError, withLock } from "./lock-file.js";

const lockPath = () => join(mkdtempSync(join(tmpdir(), "sr-lock-")), "x.lock");

/** The pid of a process that has certainly exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
}

describe("lock file", () => {
  it("holds our pid while held and is gone after", () => {
    const path = lockPath();
    withLock(path, () => {
      expect(readFileSync(path, "utf8").trim()).toBe(`${process.pid} ${threadId}`);
    });
    expect(existsSync(path)).toBe(false);
  });

  it("refuses while held, also to a second taker in the same process", () => {
    const path = lockPath();
    const release = acquireLock(path);
    expect(() => acquireLock(path)).toThrow(LockedError);
    release();
    acquireLock(path)();
  });

  it("a FIFO where the lock goes is a lock of no one yet, refused at once — never a hang", () => {
    const path = mkfifo(lockPath());
    expect(() => neverBlockedBy(path, () => acquireLock(path))).toThrow(LockedError);
  });

  it("refuses a lock held by another live process", () => {
    const path = lockPath();
    writeFileSync(path, `${process.ppid}\n`); // our parent is alive
    expect(() => acquireLock(path)).toThrow(new RegExp(`pid ${process.ppid}`));
    expect(readFileSync(path, "utf8").trim()).toBe(String(process.ppid));
  });

  it("takes over a lock left by a dead process", () => {
    const path = lockPath();
    writeFileSync(path, `${deadPid()}\n`);
    withLock(path, () => expect(readFileSync(path, "utf8").trim()).toBe(`${process.pid} ${threadId}`));
  });

  it("takes over a lock naming our own pid that we never took (an earlier run's)", () => {
    const path = lockPath();
    writeFileSync(path, `${process.pid}\n`);
    acquireLock(path)();
  });

  it("takes over a lock naming our pid and another thread from before this process started", () => {
    const path = lockPath();
    writeFileSync(path, `${process.pid} ${threadId + 7}\n`);
    const before = new Date(Date.now() - process.uptime() * 1000 - 60_000);
    utimesSync(path, before, before);
    acquireLock(path)();
  });

  it("a lock another thread of this process holds is held (the pi extension's workers share a pid)", async () => {
    const path = lockPath();
    const built = fileURLToPath(new URL("../../dist/server/fs/lock-file.js", import.meta.url));
    // The worker takes the lock, reports, and keeps it until told to let go.
    const worker = new Worker(
      `const { parentPort } = require("node:worker_threads");
       import(${JSON.stringify(built)}).then(({ acquireLock }) => {
         const release = acquireLock(${JSON.stringify(path)});
         parentPort.postMessage("taken");
         parentPort.once("message", () => { release(); parentPort.postMessage("released"); });
       });`,
      { eval: true },
    );
    const next = () => new Promise((resolve) => worker.once("message", resolve));
    expect(await next()).toBe("taken");
    expect(readFileSync(path, "utf8").trim()).toBe(`${process.pid} ${worker.threadId}`);
    expect(() => acquireLock(path)).toThrow(LockedError);
    worker.postMessage("release");
    expect(await next()).toBe("released");
    acquireLock(path)();
    await worker.terminate();
  });

  it("an empty lock file is someone writing it — unless it is old (a crash)", () => {
    const path = lockPath();
    writeFileSync(path, "");
    expect(() => acquireLock(path)).toThrow(LockedError);
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    acquireLock(path)();
  });

  it("releases when the work throws", () => {
    const path = lockPath();
    expect(() =>
      withLock(path, () => {
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(existsSync(path)).toBe(false);
  });
});
