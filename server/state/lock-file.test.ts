import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
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
      expect(readFileSync(path, "utf8").trim()).toBe(String(process.pid));
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

  it("refuses a lock held by another live process", () => {
    const path = lockPath();
    writeFileSync(path, `${process.ppid}\n`); // our parent is alive
    expect(() => acquireLock(path)).toThrow(new RegExp(`pid ${process.ppid}`));
    expect(readFileSync(path, "utf8").trim()).toBe(String(process.ppid));
  });

  it("takes over a lock left by a dead process", () => {
    const path = lockPath();
    writeFileSync(path, `${deadPid()}\n`);
    withLock(path, () => expect(readFileSync(path, "utf8").trim()).toBe(String(process.pid)));
  });

  it("takes over a lock naming our own pid that we never took (an earlier run's)", () => {
    const path = lockPath();
    writeFileSync(path, `${process.pid}\n`);
    acquireLock(path)();
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
