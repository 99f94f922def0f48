// Which Claude Code sessions are live: Claude's own registry of running processes, checked against
// /proc so that a reused pid does not count, the folder of a live process, and background jobs.
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionRecord } from "../../../shared/session-record.js";
import { claudeLiveSessions } from "./claude-live.js";

const ownStart = () => {
  const stat = readFileSync("/proc/self/stat", "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!;
};
const deadPid = 2 ** 22 - 3; // above the default pid_max: no such process

/** A Claude folder with transcripts of `ids` in the project folder of `/work/app`, written `minutesAgo`. */
function store(ids: Array<[id: string, minutesAgo: number]>) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-claude-live-")));
  mkdirSync(join(root, "projects", "-work-app"), { recursive: true });
  mkdirSync(join(root, "sessions"));
  const sessions = ids.map(([id, minutesAgo]): SessionRecord => {
    const path = join(root, "projects", "-work-app", `${id}.jsonl`);
    writeFileSync(path, "{}\n");
    const when = new Date(Date.now() - minutesAgo * 60_000);
    utimesSync(path, when, when);
    return {
      id: `claude:${id}`,
      store: { kind: "claude", root },
      path,
      namespace: "/work/app",
      sizeBytes: 3,
      createdAt: when.toISOString(),
      modifiedAt: when.toISOString(),
      lastUsedAt: when.toISOString(),
      fingerprint: { dev: 0, ino: 0, size: 3, mtimeNs: "0" },
      messageCount: 1,
      messageCounts: { user: 0, assistant: 0, toolResult: 0, other: 1 },
      warnings: [],
    };
  });
  const register = (pid: number, fields: Record<string, unknown>) =>
    writeFileSync(join(root, "sessions", `${pid}.json`), JSON.stringify({ pid, ...fields }));
  return { root, sessions, register };
}

const A = "0b0e8f52-6a36-4d7c-9a38-3e5c1e0e8c11";
const B = "1c1f9063-7b47-4e8d-8b49-4f6d2f1f9d22";

describe.runIf(process.platform === "linux")("claudeLiveSessions", () => {
  it("a registration of a live process with its procStart makes its session live", () => {
    const s = store([[A, 600]]);
    s.register(process.pid, { sessionId: A, procStart: ownStart(), startedAt: Date.now() - 1000 });
    expect(claudeLiveSessions(s.root, s.sessions).get(`claude:${A}`)).toContain(`process ${process.pid}`);
  });

  it("a dead pid, or a live pid whose start does not match (reused), makes nothing live", () => {
    const s = store([[A, 600]]);
    s.register(deadPid, { sessionId: A, procStart: "1" });
    expect(claudeLiveSessions(s.root, s.sessions).size).toBe(0);
    s.register(process.pid, { sessionId: A, procStart: String(Number(ownStart()) + 12345) });
    expect(claudeLiveSessions(s.root, s.sessions).size).toBe(0);
    s.register(process.pid, { sessionId: A, startedAt: Date.now() - 86_400_000 }); // no procStart: by time
    expect(claudeLiveSessions(s.root, s.sessions).size).toBe(0);
  });

  it("after /clear the registry names the old id: every transcript of its folder written since it started is live", () => {
    const s = store([
      [A, 600], // the id the stale registry names (written long before)
      [B, 0], // the one really being written (now: after this process started)
    ]);
    s.register(process.pid, {
      sessionId: A,
      cwd: "/work/app",
      procStart: ownStart(),
      startedAt: Date.now() - 5 * 60_000,
    });
    const live = claudeLiveSessions(s.root, s.sessions);
    expect([...live.keys()].sort()).toEqual([`claude:${A}`, `claude:${B}`]);
    expect(live.get(`claude:${B}`)).toContain("written since Claude Code process");
  });

  it("a registration from another pid namespace counts while it is updated, not after", () => {
    const s = store([[A, 600]]);
    const foreign = "linux::pid:[1]";
    expect(`linux::${readlinkSync("/proc/self/ns/pid")}`).not.toBe(foreign);
    s.register(deadPid, { sessionId: A, pidDomain: foreign, updatedAt: Date.now() - 60_000 });
    expect(claudeLiveSessions(s.root, s.sessions).has(`claude:${A}`)).toBe(true);
    s.register(deadPid, { sessionId: A, pidDomain: foreign, updatedAt: Date.now() - 3 * 86_400_000 });
    expect(claudeLiveSessions(s.root, s.sessions).size).toBe(0);
  });

  it("a background job that is working keeps its session live with no process at all", () => {
    const s = store([[A, 600]]);
    mkdirSync(join(s.root, "jobs", "job-1"), { recursive: true });
    writeFileSync(
      join(s.root, "jobs", "job-1", "state.json"),
      JSON.stringify({ state: "working", sessionId: A }),
    );
    expect(claudeLiveSessions(s.root, s.sessions).get(`claude:${A}`)).toContain("background job job-1");
    writeFileSync(
      join(s.root, "jobs", "job-1", "state.json"),
      JSON.stringify({ state: "done", sessionId: A }),
    );
    expect(claudeLiveSessions(s.root, s.sessions).size).toBe(0);
  });

  it("a corrupt registration protects nothing by itself and breaks nothing", () => {
    const s = store([[A, 600]]);
    writeFileSync(join(s.root, "sessions", "123.json"), "{ not json");
    expect(claudeLiveSessions(s.root, s.sessions).size).toBe(0);
  });
});
