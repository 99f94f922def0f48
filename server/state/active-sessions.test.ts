// Active-session detection against real processes: a live pid, a dead one, a child holding a file
// open through /proc.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { mkfifo, neverBlockedBy } from "../../test-support/fifo.js";
import {
  ActiveMarkerSchema,
  activePaths,
  detectActiveSessions,
  removeActiveMarker,
  writeActiveMarker,
} from "./active-sessions.js";

const fresh = () => realpathSync(mkdtempSync(join(tmpdir(), "sr-active-")));
const startedAt = "2026-11-22T10:00:00.000Z";

function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** A child process that opens `file` (to append, or to read) and keeps it open until killed. */
function holdOpen(file: string, mode: "a" | "r" = "a"): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      "-e",
      `require("fs").openSync(${JSON.stringify(file)}, "${mode}"); console.log("open"); setInterval(() => {}, 1000);`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.once("data", () => resolve(child));
    child.once("exit", (code) => reject(new Error(`child exited with ${code}`)));
  });
}

describe("active-session markers", () => {
  it("a marker of a live process names an active session", () => {
    const markers = fresh();
    const store = fresh();
    const session = join(store, "s.jsonl");
    writeFileSync(session, "{}\n");
    writeActiveMarker(markers, { pid: process.pid, sessionFile: session, startedAt });
    const detection = detectActiveSessions({ markersDir: markers, roots: [store] });
    expect(detection.sessions).toEqual([{ path: session, pid: process.pid, via: "marker" }]);
    expect(activePaths(detection)).toEqual(new Map([[session, `pi process ${process.pid} (marker)`]]));
  });

  it("a marker of a dead process is stale: ignored and removed", () => {
    const markers = fresh();
    const pid = deadPid();
    const file = writeActiveMarker(markers, { pid, sessionFile: "/s/x.jsonl", startedAt });
    const detection = detectActiveSessions({ markersDir: markers, roots: [] });
    expect(detection.sessions).toEqual([]);
    expect(detection.staleMarkersRemoved).toEqual([file]);
    expect(existsSync(file)).toBe(false);
  });

  it("a marker may name a file pi has not created yet", () => {
    const markers = fresh();
    const store = fresh();
    const future = join(store, "not-yet.jsonl");
    writeActiveMarker(markers, { pid: process.pid, sessionFile: future, startedAt });
    expect(detectActiveSessions({ markersDir: markers, roots: [] }).sessions[0]?.path).toBe(future);
  });

  it("a marker through a symlinked folder resolves to the real path the scan sees", () => {
    const markers = fresh();
    const store = fresh();
    mkdirSync(join(store, "real"));
    writeFileSync(join(store, "real", "s.jsonl"), "");
    symlinkSync(join(store, "real"), join(store, "link"));
    writeActiveMarker(markers, { pid: process.pid, sessionFile: join(store, "link", "s.jsonl"), startedAt });
    expect(detectActiveSessions({ markersDir: markers, roots: [] }).sessions[0]?.path).toBe(
      join(store, "real", "s.jsonl"),
    );
  });

  it("a corrupt marker is reported — with its live pid — and kept, never thrown", () => {
    const markers = fresh();
    const file = join(markers, `${process.pid}.json`);
    writeFileSync(file, "{ half a marker");
    writeFileSync(
      join(markers, "12.json"),
      JSON.stringify({ pid: 12, sessionFile: "relative.jsonl", startedAt }),
    );
    const detection = detectActiveSessions({ markersDir: markers, roots: [], isPidAlive: () => true });
    expect(detection.sessions).toEqual([]);
    expect(detection.problems).toHaveLength(2);
    expect(detection.problems.join("\n")).toContain(`process ${process.pid} is alive`);
    expect(detection.problems.join("\n")).toContain("sessionFile: must be an absolute path");
    expect(existsSync(file)).toBe(true);
  });

  it("a FIFO as a marker is reported as one, at once: the scan goes on", () => {
    const markers = fresh();
    const fifo = mkfifo(join(markers, `${process.pid}.json`));
    const detection = neverBlockedBy(fifo, () =>
      detectActiveSessions({ markersDir: markers, roots: [], isPidAlive: () => true }),
    );
    expect(detection.problems).toEqual([
      `active-session marker ${fifo} is unreadable: process ${process.pid} is alive, but which session it uses cannot be told (is a named pipe (FIFO), not a regular file; only a regular file (or a symlink to one) is read)`,
    ]);
  });

  it("no markers folder means no markers; other files in it are ignored", () => {
    expect(detectActiveSessions({ markersDir: "/nonexistent/markers", roots: [] })).toEqual({
      sessions: [],
      problems: [],
      staleMarkersRemoved: [],
      unmarked: [],
    });
    const markers = fresh();
    writeFileSync(join(markers, ".abc.tmp"), "{");
    expect(detectActiveSessions({ markersDir: markers, roots: [] }).problems).toEqual([]);
  });

  it("writes atomically: 0600, valid, no temporary files; removal is idempotent", () => {
    const markers = join(fresh(), "active");
    const file = writeActiveMarker(markers, { pid: 4242, sessionFile: "/s/a.jsonl", startedAt });
    expect(readdirSync(markers)).toEqual(["4242.json"]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(ActiveMarkerSchema.parse(JSON.parse(readFileSync(file, "utf8")))).toEqual({
      pid: 4242,
      sessionFile: "/s/a.jsonl",
      startedAt,
    });
    removeActiveMarker(markers, 4242);
    removeActiveMarker(markers, 4242);
    expect(readdirSync(markers)).toEqual([]);
  });

  it("accepts extra fields from a newer extension", () => {
    expect(ActiveMarkerSchema.parse({ pid: 1, sessionFile: "/a", startedAt, cwd: "/x" })).toMatchObject({
      pid: 1,
    });
  });
});

describe.runIf(existsSync("/proc/self/fd"))("files held open (/proc)", () => {
  it("finds a file another process holds open for writing under a root, not one outside the roots", async () => {
    const store = fresh();
    const elsewhere = fresh();
    const inside = join(store, "open.jsonl");
    const outside = join(elsewhere, "other.jsonl");
    writeFileSync(inside, "{}\n");
    writeFileSync(outside, "{}\n");
    const holder = await holdOpen(inside);
    const other = await holdOpen(outside);
    const detection = detectActiveSessions({ markersDir: "/nonexistent", roots: [store] });
    expect(detection.sessions).toContainEqual({ path: inside, pid: holder.pid, via: "open-file" });
    expect(detection.sessions.some((s) => s.pid === other.pid)).toBe(false);
    expect(activePaths(detection).get(inside)).toBe(`open in process ${holder.pid}`);
  });

  it("a process that only reads the file (tail -f, another scan) does not make it active", async () => {
    const store = fresh();
    const file = join(store, "read.jsonl");
    writeFileSync(file, "{}\n");
    const reader = await holdOpen(file, "r");
    const detection = detectActiveSessions({ markersDir: "/nonexistent", roots: [store] });
    expect(detection.sessions.some((s) => s.pid === reader.pid)).toBe(false);
  });

  it("once the process is gone, the file is no longer active", async () => {
    const store = fresh();
    const file = join(store, "open.jsonl");
    writeFileSync(file, "{}\n");
    const holder = await holdOpen(file);
    const exited = new Promise((resolve) => holder.once("exit", resolve));
    holder.kill("SIGKILL");
    await exited;
    expect(detectActiveSessions({ markersDir: "/nonexistent", roots: [store] }).sessions).toEqual([]);
  });
});

describe("without /proc", () => {
  it("the open-file check is skipped cleanly", () => {
    expect(
      detectActiveSessions({ markersDir: "/nonexistent", roots: ["/x"], procDir: "/nonexistent/proc" }),
    ).toEqual({
      sessions: [],
      problems: [],
      staleMarkersRemoved: [],
      unmarked: [],
    });
  });
});
