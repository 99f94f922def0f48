import { describe, expect, it } from "vitest";
import { foldedNotes } from "./notices.js";

const finding = (kind: "claude" | "gemini" | "pi", sessions: number, notSessions: number, bytes = 0) => ({
  store: { kind, root: `/home/u/.${kind}` },
  sessions,
  notSessions,
  notSessionBytes: bytes,
});

describe("foldedNotes", () => {
  it("folds every store's strays and each pi without the extension into one line that says what they are", () => {
    const folded = foldedNotes({
      findings: [finding("claude", 12, 5, 58), finding("gemini", 3, 1), finding("pi", 40, 0)],
      piWithoutExtension: [{ pid: 4242, cwd: "/work/a", startedAt: "2026-11-28T05:00:00.000Z" }],
    });
    expect(folded?.summary).toBe(
      "3 notes: 6 items in 2 stores are not sessions, left alone; 1 pi process runs without the extension",
    );
    expect(folded?.notes.map((n) => [n.kind, n.text])).toEqual([
      [
        "not-sessions",
        "5 items (58 B) in /home/u/.claude are not sessions of this Claude Code store: left alone, never cleaned.",
      ],
      [
        "not-sessions",
        "1 item in /home/u/.gemini is not a session of this Gemini CLI store: left alone, never cleaned.",
      ],
      ["pi-without-extension", expect.stringContaining("pi process 4242 runs in /work/a without")],
    ]);
  });

  it("leaves out a store where nothing is a session (that stays a banner of its own), and is nothing without notes", () => {
    expect(foldedNotes({ findings: [finding("claude", 0, 3)], piWithoutExtension: [] })).toBeUndefined();
    expect(foldedNotes({ findings: [finding("pi", 10, 0)] })).toBeUndefined();
    expect(foldedNotes({ findings: [finding("pi", 10, 1)] })?.summary).toBe(
      "1 note: 1 item in 1 store is not a session, left alone",
    );
  });
});
