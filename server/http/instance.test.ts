import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mkfifo, neverBlockedBy } from "../../test-support/fifo.js";
import { forgetInstance, recordInstance, runningInstance, writeRedirectFile } from "./instance.js";

const dir = () => mkdtempSync(join(tmpdir(), "sr-instance-"));
const deadPid = () =>
  Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString());

describe("one dashboard per state dir", () => {
  it("finds a recorded instance whose process is alive, and ignores a dead one", () => {
    const state = dir();
    recordInstance(state, { pid: process.ppid, port: 4178, url: "http://127.0.0.1:4178/#token=abc" });
    expect(runningInstance(state)).toMatchObject({ pid: process.ppid, port: 4178 });
    expect(statSync(join(state, "server.json")).mode & 0o777).toBe(0o600);
    recordInstance(state, { pid: deadPid(), port: 4178, url: "x" });
    expect(runningInstance(state)).toBeUndefined();
  });

  it("a FIFO as the record means none, at once (a new dashboard starts)", () => {
    const state = dir();
    const fifo = mkfifo(join(state, "server.json"));
    expect(neverBlockedBy(fifo, () => runningInstance(state))).toBeUndefined();
    neverBlockedBy(fifo, () => forgetInstance(state));
  });

  it("forgets only its own record", () => {
    const state = dir();
    recordInstance(state, { pid: process.ppid, port: 1, url: "x" });
    forgetInstance(state);
    expect(runningInstance(state)).toBeDefined();
    recordInstance(state, { pid: process.pid, port: 1, url: "x" });
    forgetInstance(state);
    expect(() => readFileSync(join(state, "server.json"))).toThrow();
  });

  it("forgets its redirect file with its record (both hold its token); another process's stay", () => {
    const state = dir();
    recordInstance(state, { pid: process.ppid, port: 1, url: "x" });
    const redirect = writeRedirectFile(state, "http://127.0.0.1:1/#token=theirs");
    forgetInstance(state);
    expect(existsSync(redirect)).toBe(true);
    recordInstance(state, { pid: process.pid, port: 1, url: "x" });
    writeRedirectFile(state, "http://127.0.0.1:1/#token=ours");
    forgetInstance(state);
    expect(existsSync(redirect)).toBe(false);
    expect(existsSync(join(state, "server.json"))).toBe(false);
  });

  it("the redirect file carries the token privately (0600), escaped", () => {
    const state = dir();
    const file = writeRedirectFile(state, 'http://127.0.0.1:1/#token=a"b&c');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8")).toContain('content="0;url=http://127.0.0.1:1/#token=a&quot;b&amp;c"');
  });
});
