// Which session a command-line argument names (`clean --ids`, `keep`, `protect`): by exact id, by
// path, by a unique part of an id, or a detachable part by its own id or path — in that order — and
// for many arguments over a large store without a search of the whole store per argument. Plain
// records; paths that do not exist on disk resolve as given.
import { describe, expect, it } from "vitest";
import type { SessionRecord } from "../../shared/session-record.js";
import { findSession, sessionFinder } from "./find-session.js";

const fingerprint = { dev: 1, ino: 1, size: 10, mtimeNs: "1000000000" };

function session(id: string, extra: Partial<SessionRecord> = {}): SessionRecord {
  return {
    id,
    store: { kind: "pi", root: "/nowhere/pi" },
    path: `/nowhere/pi/--work--/${id}.jsonl`,
    namespace: "/work",
    sizeBytes: 10,
    createdAt: "2025-01-01T00:00:00.000Z",
    modifiedAt: "2025-01-01T00:00:00.000Z",
    lastUsedAt: "2025-01-01T00:00:00.000Z",
    fingerprint,
    messageCount: 2,
    messageCounts: { user: 1, assistant: 1, toolResult: 0, other: 0 },
    warnings: [],
    ...extra,
  };
}

describe("findSession", () => {
  const twin = {
    id: "gemini-twin:abcdef01",
    path: "/nowhere/gemini/chats/twin.json",
    sizeBytes: 1,
    fingerprint,
    what: "an empty copy left by a resume",
  };
  const sessions = [
    session("0190aaaa-1111-7000-8000-000000000001"),
    session("0190aaaa-2222-7000-8000-000000000002", { detachable: [twin] }),
    // Its path is another session's id: an id is looked for first.
    session("0190aaaa-3333-7000-8000-000000000003", { path: "0190aaaa-1111-7000-8000-000000000001" }),
  ];

  it("takes an exact id, then a path, then a unique part of an id; a part by its own id or path", () => {
    expect(findSession("0190aaaa-2222-7000-8000-000000000002", sessions)).toBe(sessions[1]);
    expect(findSession("0190aaaa-1111-7000-8000-000000000001", sessions)).toBe(sessions[0]);
    expect(findSession(sessions[2]!.path, sessions)).toBe(sessions[0]); // the id wins
    expect(findSession(sessions[1]!.path, sessions)).toBe(sessions[1]);
    expect(findSession("3333-7000-8000", sessions)).toBe(sessions[2]);
    expect(findSession(twin.id, sessions)).toMatchObject({ id: twin.id, path: twin.path });
    expect(findSession(twin.path, sessions)).toMatchObject({ id: twin.id, path: twin.path });
  });

  it("refuses a part of several ids, a part too short, and what names nothing", () => {
    expect(() => findSession("7000-8000-0000", sessions)).toThrow(
      /is part of 3 session ids; give more of it/,
    );
    expect(() => findSession("0190aaa", sessions)).toThrow(/no session "0190aaa"/);
    expect(() => findSession("/nowhere/else.jsonl", sessions)).toThrow(/no session/);
  });
});

describe("sessionFinder", () => {
  it("finds 1,500 sessions named by path in a store of 100,000 through one index, not a search per name", () => {
    const store = Array.from({ length: 100_000 }, (_, i) =>
      session(`0190${String(i).padStart(4, "0")}-0000-7000-8000-${String(i).padStart(12, "0")}`),
    );
    const named = store.filter((_, i) => i % 66 === 0).slice(0, 1500);
    const started = performance.now();
    const find = sessionFinder(store);
    const found = named.map((s) => find(s.path));
    const seconds = (performance.now() - started) / 1000;
    expect(found).toEqual(named);
    // One search of the store per argument took ~100 s here (150 million comparisons); an index
    // takes well under a second even on a loaded machine.
    expect(seconds).toBeLessThan(10);
  });
});
