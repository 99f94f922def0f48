// Where pi keeps sessions: agent dir, default and custom session dirs, and the lossy folder names.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mkfifo, neverBlockedBy } from "../../../test-support/fifo.js";
import {
  discoverPiRoots,
  expandTilde,
  namespaceFromFolderName,
  parseSessionFileName,
  resolveAgentDir,
} from "./locations.js";

describe("resolveAgentDir", () => {
  it("uses PI_CODING_AGENT_DIR with ~ expanded, else ~/.pi/agent", () => {
    expect(resolveAgentDir({ HOME: "/home/u", PI_CODING_AGENT_DIR: "~/custom" })).toBe("/home/u/custom");
    expect(resolveAgentDir({ HOME: "/home/u", PI_CODING_AGENT_DIR: "/abs/agent" })).toBe("/abs/agent");
    expect(resolveAgentDir({ HOME: "/home/u" })).toBe("/home/u/.pi/agent");
  });

  it("expands only ~ and ~/, like pi", () => {
    expect(expandTilde("~", "/h")).toBe("/h");
    expect(expandTilde("~/x", "/h")).toBe("/h/x");
    expect(expandTilde("~x/y", "/h")).toBe("~x/y");
  });
});

describe("discoverPiRoots", () => {
  const agentWithSettings = (settings: string | undefined) => {
    const home = mkdtempSync(join(tmpdir(), "sr-loc-"));
    const agentDir = join(home, "agent");
    mkdirSync(agentDir);
    if (settings !== undefined) writeFileSync(join(agentDir, "settings.json"), settings);
    return { home, agentDir };
  };

  it("finds the default store, the env session dir and settings' sessionDir, without duplicates", () => {
    const { home, agentDir } = agentWithSettings(JSON.stringify({ sessionDir: "~/from-settings" }));
    const found = discoverPiRoots({
      HOME: home,
      PI_CODING_AGENT_DIR: agentDir,
      PI_CODING_AGENT_SESSION_DIR: "/data/pi-sessions",
    });
    expect(found.roots).toEqual([
      { path: join(agentDir, "sessions"), origin: "default" },
      { path: "/data/pi-sessions", origin: "env" },
      { path: join(home, "from-settings"), origin: "settings" },
    ]);
    expect(found.notes).toEqual([]);
  });

  it("ignores a relative sessionDir with a note instead of guessing what it is relative to", () => {
    const { home, agentDir } = agentWithSettings(JSON.stringify({ sessionDir: "relative/dir" }));
    const found = discoverPiRoots({ HOME: home, PI_CODING_AGENT_DIR: agentDir });
    expect(found.roots.map((r) => r.origin)).toEqual(["default"]);
    expect(found.notes).toEqual(['ignored settings session dir "relative/dir": not an absolute path']);
  });

  it("reports an unreadable settings file and still returns the default store", () => {
    const { home, agentDir } = agentWithSettings("{ not json");
    const found = discoverPiRoots({ HOME: home, PI_CODING_AGENT_DIR: agentDir });
    expect(found.roots).toHaveLength(1);
    expect(found.notes[0]).toMatch(/could not read .*settings\.json/);
  });

  it("a FIFO as settings.json: a note naming it, at once, and the default store", () => {
    const { home, agentDir } = agentWithSettings(undefined);
    const fifo = mkfifo(join(agentDir, "settings.json"));
    const found = neverBlockedBy(fifo, () => discoverPiRoots({ HOME: home, PI_CODING_AGENT_DIR: agentDir }));
    expect(found.roots.map((r) => r.origin)).toEqual(["default"]);
    expect(found.notes).toEqual([
      `pi's settings file ${fifo} is a named pipe (FIFO), not a regular file; only a regular file (or a symlink to one) is read`,
    ]);
  });
});

describe("pi's file and folder names", () => {
  it("guesses a namespace from a --cwd-- folder (lossy: dashes become slashes)", () => {
    expect(namespaceFromFolderName("--home-u-app--")).toBe("/home/u/app");
    expect(namespaceFromFolderName("--home-u-my-app--")).toBe("/home/u/my/app");
    expect(namespaceFromFolderName("sessions")).toBeUndefined();
  });

  it("reads the time and id from a session file name", () => {
    expect(
      parseSessionFileName("2025-01-02T03-04-05-678Z_0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl"),
    ).toEqual({
      createdAt: "2025-01-02T03:04:05.678Z",
      id: "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
    });
    expect(parseSessionFileName("notes.jsonl")).toEqual({});
    expect(parseSessionFileName("2025-13-45T99-04-05-678Z_x.jsonl")).toEqual({ id: "x" });
  });
});
