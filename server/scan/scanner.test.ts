// The scanner against real stores written by pi's own SessionManager: agreement with pi, bad input,
// and the incremental cache.
import {
  appendFileSync,
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { describe, expect, it } from "vitest";
import type { ScanReport } from "../../shared/scan-report.js";
import { describeFinding, storeFindings } from "../../shared/scan-summary.js";
import type { SessionRecord } from "../../shared/session-record.js";
import {
  assistantMessage,
  piFolder,
  setModified,
  toolResultMessage,
  userMessage,
  writeSession,
} from "../../test-support/pi-store.js";
import { FIRST_MESSAGE_CHARS, oneLine, sessionTitle } from "../../shared/session-title.js";
import { formatBytes } from "../../shared/format.js";
import { sameIdentity } from "../fs/file-identity.js";
import { MAX_LINES } from "../stores/read-caps.js";
import { factsIdentities, factsPaths } from "../../test-support/facts-db.js";
import { scanStores } from "./scanner.js";
import { piStores } from "../../test-support/pi-stores.js";

const newRoot = () => mkdtempSync(join(tmpdir(), "sr-scan-"));
const byPath = (sessions: SessionRecord[]) => new Map(sessions.map((s) => [s.path, s]));
const codes = (record: SessionRecord | undefined) => record?.warnings.map((w) => w.code) ?? [];

/** A store with what real use produces: odd cwds, branches, compaction, labels, names, a fork, images. */
function realisticStore() {
  const root = newRoot();
  const plain = writeSession(root, "/home/dev/my project", 3, { name: "first name" });
  plain.appendSessionInfo("renamed");
  writeSession(root, "/srv/api.v2.example", 2);
  const cleared = writeSession(root, "/opt/data-pipe-line", 1, { name: "to be cleared" });
  cleared.appendSessionInfo("");

  const branched = writeSession(root, "/home/dev/my project", 4);
  const entries = branched.getEntries();
  branched.branch(entries[1]!.id);
  branched.appendMessage(userMessage("another way"));
  branched.appendMessage(assistantMessage("sure"));
  branched.appendCompaction("summary of the start", entries[2]!.id, 12_345);
  branched.appendLabelChange(entries[0]!.id, "bookmark");
  branched.appendModelChange("openai", "gpt-5");
  branched.appendThinkingLevelChange("high");
  branched.appendCustomEntry("my-extension", { timestamp: "2001-01-01T00:00:00.000Z" });

  const image = Buffer.alloc(700_000, 7).toString("base64"); // ~930 KB of inline image
  const big = writeSession(root, "/home/dev/my project", 1);
  big.appendMessage(toolResultMessage("screenshot", image));
  big.appendMessage(assistantMessage("I see it"));

  const forkFolder = join(root, piFolder("/home/dev/fork-target"));
  mkdirSync(forkFolder, { recursive: true });
  const fork = SessionManager.forkFrom(plain.getSessionFile()!, "/home/dev/fork-target", forkFolder);
  fork.appendMessage(userMessage("continuing in the fork"));
  fork.appendMessage(assistantMessage("ok"));
  return { root, plain, big, fork, branched };
}

describe("agreement with pi's own reading of its files", () => {
  it("has the same ids, cwds, names, created times, forks and message counts as SessionManager", async () => {
    const { root } = realisticStore();
    const report = await scanStores({ stores: piStores(root) });
    const folders = [...new Set(report.sessions.map((s) => s.path.slice(0, s.path.lastIndexOf("/"))))];
    const infos = (await Promise.all(folders.map((f) => SessionManager.list("/unused", f)))).flat();
    expect(infos).toHaveLength(report.sessions.length);
    expect(report.sessions.length).toBe(6);
    const ours = byPath(report.sessions);
    for (const info of infos) {
      const record = ours.get(info.path)!;
      expect(record.id).toBe(info.id);
      expect(record.namespace).toBe(info.cwd);
      expect(record.name).toBe(info.name);
      // pi's picker shows the first message for an unnamed session; we keep it as one short line.
      expect(record.firstMessage).toBe(oneLine(info.firstMessage));
      expect(record.createdAt).toBe(info.created.toISOString());
      expect(record.parentSession).toBe(info.parentSessionPath);
      const counts = record.messageCounts;
      expect(counts.user + counts.assistant + counts.toolResult + counts.other).toBe(info.messageCount);
      expect(record.messageCount).toBe(SessionManager.open(info.path).getEntries().length);
      expect(record.warnings).toEqual([]);
      expect(record.version).toBe(3);
    }
    // The rename wins over the first name, the cleared name is gone, and the fork inherits the rename.
    expect(report.sessions.filter((s) => s.name !== undefined).map((s) => s.name)).toEqual([
      "renamed",
      "renamed",
    ]);
  });

  it("counts the ~1 MB image session by role and takes the namespace from the header, not the lossy folder", async () => {
    const { root, big } = realisticStore();
    const record = byPath((await scanStores({ stores: piStores(root) })).sessions).get(
      big.getSessionFile()!,
    )!;
    expect(record.sizeBytes).toBeGreaterThan(900_000);
    expect(record.messageCounts).toEqual({ user: 1, assistant: 2, toolResult: 1, other: 0 });
    const report = await scanStores({ stores: piStores(root) });
    expect(report.namespaces.map((n) => n.namespace).sort()).toEqual(
      ["/home/dev/fork-target", "/home/dev/my project", "/opt/data-pipe-line", "/srv/api.v2.example"].sort(),
    );
  });
});

describe("bad input: a warning on the right session, the rest intact", () => {
  const header = (id: string, extra: object = {}) =>
    JSON.stringify({
      type: "session",
      version: 3,
      id,
      timestamp: "2026-01-01T00:00:00.000Z",
      cwd: "/w",
      ...extra,
    });
  const line = (role: string, n = 0) =>
    JSON.stringify({
      type: "message",
      id: `m${n}`,
      parentId: null,
      timestamp: "2026-01-01T00:00:01.000Z",
      message: { role, content: "x" },
    });

  it.each([
    [
      "corrupt lines",
      `${header("a")}\n${line("user")}\nnot json at all\n{"type":"message",\n${line("assistant")}\n`,
      ["corrupt-line"],
      2,
    ],
    [
      "a missing header",
      `${line("user")}\n${line("assistant")}\n`,
      ["missing-header", "namespace-from-folder"],
      2,
    ],
    [
      "a truncated last line",
      `${header("c")}\n${line("user")}\n{"type":"message","id":"x","par`,
      ["truncated-last-line"],
      1,
    ],
    ["a 0-byte file", "", ["empty-file", "namespace-from-folder"], 0],
    [
      "a v1 header (no version, no ids)",
      `${JSON.stringify({ type: "session", id: "v1", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/w" })}\n{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"x"}}\n`,
      [],
      1,
    ],
    ["a v2 header", `${header("v2", { version: 2 })}\n${line("user")}\n`, [], 1],
    [
      "unknown entry types",
      `${header("u")}\n{"type":"future_thing","id":"f1","parentId":null,"timestamp":"2026-01-01T00:00:02.000Z","x":1}\n${line("user")}\n`,
      [],
      2,
    ],
    ["a newer header version", `${header("n", { version: 99 })}\n${line("user")}\n`, ["unknown-version"], 1],
  ])("%s", async (_what, text, expected, entries) => {
    const root = newRoot();
    const folder = join(root, "--w--");
    mkdirSync(folder);
    writeSession(root, "/intact", 2);
    const bad = join(folder, "2026-01-01T00-00-00-000Z_0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl");
    writeFileSync(bad, text);
    const report = await scanStores({ stores: piStores(root) });
    expect(report.sessions).toHaveLength(2);
    const record = byPath(report.sessions).get(bad);
    expect(codes(record).sort()).toEqual([...expected].sort());
    expect(record!.messageCount).toBe(entries);
    const intact = report.sessions.find((s) => s.namespace === "/intact")!;
    expect(intact.warnings).toEqual([]);
    expect(intact.messageCounts).toEqual({ user: 2, assistant: 2, toolResult: 0, other: 0 });
  });

  it("counts a 50 MB single line without parsing it, and never holds it whole", async () => {
    const root = newRoot();
    const folder = join(root, "--w--");
    mkdirSync(folder);
    const path = join(folder, "big.jsonl");
    const huge = JSON.stringify({
      type: "message",
      id: "m1",
      parentId: null,
      timestamp: "2026-01-01T00:00:01.000Z",
      message: { role: "toolResult", content: [{ type: "text", text: "y".repeat(50 * 1024 * 1024) }] },
    });
    writeFileSync(path, `${header("big")}\n${huge}\n${line("user")}\n`);
    const before = process.memoryUsage().rss;
    const [record] = (await scanStores({ stores: piStores(root) })).sessions;
    expect(record!.messageCounts).toEqual({ user: 1, assistant: 0, toolResult: 1, other: 0 });
    expect(record!.warnings).toEqual([]);
    // A whole-file string would be 100 MB of UTF-16 at least; the reader holds 256 KiB at a time.
    expect(process.memoryUsage().rss - before).toBeLessThan(40 * 1024 * 1024);
  });

  it("reads a session of more lines than the cap to the cap, from the cache too, and never past it when it grows", async () => {
    const root = newRoot();
    mkdirSync(join(root, "--w--"));
    const path = join(root, "--w--", "long.jsonl");
    // The header and a user message, blank lines up to the cap (they count), then a message no read may reach.
    writeFileSync(
      path,
      `${header("long")}\n${line("user")}\n${"\n".repeat(MAX_LINES - 2)}${line("assistant")}\n`,
    );
    setModified(path, new Date("2026-02-01T00:00:00.000Z"));
    const cacheFile = join(newRoot(), "cache.json");
    const capped = (record: SessionRecord | undefined) => {
      expect(record!.messageCounts).toEqual({ user: 1, assistant: 0, toolResult: 0, other: 0 });
      expect(record!.warnings).toEqual([
        {
          code: "read-capped",
          message: `reading stopped at the cap of 2,000,000 lines a file; the 2,000,000 lines (${formatBytes(
            statSync(path).size - line("assistant").length - 1,
          )}) read are counted, the rest is not (its size on disk is counted whole)`,
        },
      ]);
      // Its last entry is not known: its mtime stands in, never the last entry read.
      expect(record!.lastUsedAt).toBe(record!.modifiedAt);
    };
    capped((await scanStores({ stores: piStores(root), cacheFile, precise: true })).sessions[0]);
    const warm = await scanStores({ stores: piStores(root), cacheFile, precise: true });
    expect(warm.stats.cacheHits).toBe(1);
    capped(warm.sessions[0]);
    appendFileSync(path, `${line("toolResult")}\n`);
    const grown = await scanStores({ stores: piStores(root), cacheFile, precise: true });
    expect(grown.sessions[0]!.messageCounts).toEqual({ user: 1, assistant: 0, toolResult: 0, other: 0 });
    expect(grown.stats.bytesRead).toBeLessThan(1024 * 1024);
  });

  it("flags a 2 MB session_info line (it must be parsed for the name) as too long, and counts it", async () => {
    const root = newRoot();
    mkdirSync(join(root, "--w--"));
    const path = join(root, "--w--", "s.jsonl");
    const info = JSON.stringify({
      type: "session_info",
      id: "i1",
      parentId: null,
      timestamp: "2026-01-01T00:00:01.000Z",
      name: "n".repeat(2 * 1024 * 1024),
    });
    writeFileSync(path, `${header("i")}\n${info}\n`);
    const [record] = (await scanStores({ stores: piStores(root) })).sessions;
    expect(codes(record)).toEqual(["line-too-long"]);
    expect(record!.messageCount).toBe(1);
  });

  it("reads a file whose name is not valid UTF-8 by its exact bytes", async () => {
    const root = newRoot();
    mkdirSync(join(root, "--w--"));
    const name = Buffer.concat([
      Buffer.from(join(root, "--w--", "bad-")),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(".jsonl"),
    ]);
    writeFileSync(name, `${header("utf")}\n${line("user")}\n`);
    const [record] = (await scanStores({ stores: piStores(root) })).sessions;
    expect(codes(record)).toEqual(["non-utf8-name"]);
    expect(record!.path).toContain("\uFFFD");
    expect(record!.messageCounts.user).toBe(1);
  });

  it("reports symlinks (out of the root, loops) without following them", async () => {
    const root = newRoot();
    const outside = newRoot();
    writeSession(root, "/inside", 1);
    const target = join(outside, "secret.jsonl");
    writeFileSync(target, `${header("secret")}\n${line("user")}\n`);
    symlinkSync(target, join(root, "link.jsonl"));
    symlinkSync(outside, join(root, "linked-folder"));
    symlinkSync(join(root, "loop-b"), join(root, "loop-a"));
    symlinkSync(join(root, "loop-a"), join(root, "loop-b"));
    const report = await scanStores({ stores: piStores(root) });
    expect(report.sessions.map((s) => s.namespace)).toEqual(["/inside"]);
    expect(report.problems.map((p) => p.code)).toEqual(["symlink", "symlink", "symlink", "symlink"]);
    expect(report.problems.find((p) => p.path.endsWith("loop-a"))?.message).toMatch(/loop/);
    expect(readFileSync(target, "utf8")).toContain("secret");
  });

  it("gives the second of two files with the same session id its own id and a warning", async () => {
    const root = newRoot();
    mkdirSync(join(root, "--w--"));
    writeFileSync(join(root, "--w--", "a.jsonl"), `${header("same")}\n${line("user")}\n`);
    writeFileSync(join(root, "--w--", "b.jsonl"), `${header("same")}\n${line("user")}\n`);
    const report = await scanStores({ stores: piStores(root) });
    const [a, b] = [...report.sessions].sort((x, y) => (x.path < y.path ? -1 : 1));
    expect(a!.id).toBe("same");
    expect(b!.id).toMatch(/^path-[0-9a-f]{16}$/);
    expect(codes(b)).toEqual(["duplicate-id"]);
  });

  it("reports a folder it may not read and scans the rest (as an unprivileged user)", async ({ skip }) => {
    if (process.getuid?.() !== 0) {
      // Not root: chmod is enough.
      const root = newRoot();
      writeSession(root, "/ok", 1);
      const denied = join(root, "--denied--");
      mkdirSync(denied);
      chmodSync(denied, 0);
      const report = await scanStores({ stores: piStores(root) });
      chmodSync(denied, 0o755);
      expect(report.problems.map((p) => p.code)).toEqual(["permission-denied"]);
      expect(report.sessions).toHaveLength(1);
      return;
    }
    // As root, permissions do not apply: run the real CLI as nobody (uid 65534) instead.
    const { spawnSync } = await import("node:child_process");
    const root = mkdtempSync(join("/tmp", "sr-perm-"));
    chmodSync(root, 0o755);
    try {
      writeSession(root, "/ok", 1);
      const denied = join(root, "--denied--");
      mkdirSync(denied);
      writeFileSync(join(denied, "x.jsonl"), `${header("d")}\n`);
      chmodSync(denied, 0o700);
      const cli = join(process.cwd(), "bin", "session-retention.js");
      const result = spawnSync(process.execPath, [cli, "scan", "--json", "--no-cache", "--root", root], {
        uid: 65534,
        gid: 65534,
        env: { PATH: process.env.PATH, HOME: "/nonexistent", PI_CODING_AGENT_DIR: "/nonexistent/agent" },
        encoding: "utf8",
      });
      if (result.error) skip(`cannot run as uid 65534 here: ${result.error.message}`);
      expect(result.status).toBe(0);
      const report = JSON.parse(result.stdout);
      expect(report.problems.map((p: { code: string }) => p.code)).toEqual(["permission-denied"]);
      expect(report.sessions).toHaveLength(1);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("only pi sessions are sessions of a pi store", () => {
  it("a pi header or pi's own file name makes a session; anything else, anywhere else, is reported and left out", async () => {
    const root = newRoot();
    const real = writeSession(root, "/work/app", 1).getSessionFile()!;
    const folder = join(root, "--work-app--");
    const header = JSON.stringify({
      type: "session",
      version: 3,
      id: "named-freely",
      timestamp: "2026-01-01T00:00:00.000Z",
      cwd: "/w",
    });
    writeFileSync(join(folder, "notes.jsonl"), `${header}\n`); // pi's header, any name: a session
    const damaged = join(folder, "2026-01-01T00-00-00-000Z_0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl");
    writeFileSync(damaged, "garbage\n"); // pi's name, damaged content: a session (with warnings)
    const events = join(folder, "events.jsonl");
    writeFileSync(events, '{"event":"deploy"}\n'); // a user's JSONL: not a session
    const badName = join(folder, "2026-01-01T00-00-00-000Z_not-a-uuid.jsonl");
    writeFileSync(badName, '{"event":"x"}\n');
    mkdirSync(join(folder, "nested"));
    writeFileSync(join(folder, "nested", "deep.jsonl"), `${header}\n`); // too deep: never walked into
    mkdirSync(join(root, "code", "app"), { recursive: true }); // not a --cwd-- folder
    writeFileSync(join(root, "code", "app", "events.jsonl"), `${header}\n`);
    writeFileSync(join(root, "README.md"), "hello");
    const report = await scanStores({ stores: piStores(root) });
    expect(report.sessions.map((s) => s.path).sort()).toEqual(
      [damaged, join(folder, "notes.jsonl"), real].sort(),
    );
    const notSessions = report.problems.filter((p) => p.code === "not-a-session");
    expect(notSessions.map((p) => p.path).sort()).toEqual(
      [events, badName, join(folder, "nested"), join(root, "code"), join(root, "README.md")].sort(),
    );
    expect(notSessions.find((p) => p.path === events)).toMatchObject({ bytes: 19 });
  });

  it("a root holding no pi session at all says so", async () => {
    const root = newRoot();
    mkdirSync(join(root, "app"));
    writeFileSync(join(root, "app", "events.jsonl"), "{}\n");
    writeFileSync(join(root, "log.jsonl"), '{"level":"info"}\n');
    const report = await scanStores({ stores: piStores(root) });
    expect(report.sessions).toEqual([]);
    const [finding] = storeFindings(report);
    expect(finding).toMatchObject({ sessions: 0, notSessions: 2, notSessionBytes: 17 });
    expect(describeFinding(finding!, String)).toBe(
      `Nothing in ${root} is a session of a pi store: 2 items (17) there, all left alone. Is this the right folder?`,
    );
    // Another agent's store is named as the agent is.
    expect(
      describeFinding({ ...finding!, store: { kind: "claude", root: "/h/.claude" }, sessions: 3 }, String),
    ).toBe(
      "2 items (17) in /h/.claude are not sessions of this Claude Code store: left alone, never cleaned.",
    );
  });
});

describe("the first user message (the title of an unnamed session)", () => {
  it("is the first user message with text, as one short line, found across chunk edges", async () => {
    const root = newRoot();
    const folder = join(root, piFolder("/home/dev/app"));
    mkdirSync(folder, { recursive: true });
    // An image alone is not a title (pi skips it too); a 400 KB pasted log spans read chunks.
    const imageOnly = SessionManager.create("/home/dev/app", folder);
    imageOnly.appendMessage({
      role: "user",
      content: [{ type: "image", data: Buffer.alloc(300_000, 1).toString("base64"), mimeType: "image/png" }],
      timestamp: Date.now(),
    });
    imageOnly.appendMessage(assistantMessage("a cat"));
    imageOnly.appendMessage({
      role: "user",
      content: [
        { type: "text", text: "\n\n  why is\tthe build\n" },
        { type: "text", text: "red? " + "log line\n".repeat(40_000) },
      ],
      timestamp: Date.now(),
    });
    imageOnly.appendMessage(assistantMessage("because"));
    imageOnly.appendMessage(userMessage("a later question"));
    const empty = SessionManager.create("/home/dev/app", folder);
    empty.appendMessage(assistantMessage("hello"));
    empty.appendMessage(userMessage("   "));
    empty.appendMessage(assistantMessage("still there?"));
    const named = writeSession(root, "/home/dev/app", 1, { name: "release notes" });

    const cacheFile = join(newRoot(), "cache.json");
    const report = await scanStores({ stores: piStores(root), cacheFile });
    const records = byPath(report.sessions);
    const first = records.get(imageOnly.getSessionFile()!)!;
    expect(first.firstMessage).toMatch(/^why is the build red\? log line log line/);
    expect(first.firstMessage!.endsWith("…")).toBe(true);
    expect(Array.from(first.firstMessage!)).toHaveLength(FIRST_MESSAGE_CHARS);
    expect(sessionTitle(first)).toEqual({ title: first.firstMessage, source: "message" });
    const none = records.get(empty.getSessionFile()!)!;
    expect(none.firstMessage).toBeUndefined();
    expect(sessionTitle(none).source).toBe("time");
    const withName = records.get(named.getSessionFile()!)!;
    expect(withName.firstMessage).toBe("question 0 in /home/dev/app");
    expect(sessionTitle(withName)).toEqual({ title: "release notes", source: "name" });

    // A warm scan reads nothing and still knows it, from the cache file.
    const warm = await scanStores({ stores: piStores(root), cacheFile });
    expect(warm.stats.filesRead).toBe(0);
    expect(warm.sessions).toEqual(report.sessions);
    // An append does not replace it: it stays the first.
    empty.appendMessage(userMessage("now a real question"));
    imageOnly.appendMessage(userMessage("not the first"));
    const appended = byPath((await scanStores({ stores: piStores(root), cacheFile })).sessions);
    expect(appended.get(imageOnly.getSessionFile()!)!.firstMessage).toBe(first.firstMessage);
    expect(appended.get(empty.getSessionFile()!)!.firstMessage).toBe("now a real question");
  });
});

describe("incremental cache", () => {
  const setup = async () => {
    const root = newRoot();
    const cacheFile = join(newRoot(), "cache.json");
    const a = writeSession(root, "/p", 2).getSessionFile()!;
    const b = writeSession(root, "/p", 1).getSessionFile()!;
    await scanStores({ stores: piStores(root), cacheFile });
    return { root, cacheFile, a, b };
  };

  it("reads nothing when nothing changed", async () => {
    const { root, cacheFile } = await setup();
    const again = await scanStores({ stores: piStores(root), cacheFile });
    expect(again.stats).toMatchObject({ filesRead: 0, bytesRead: 0, cacheHits: 2 });
  });

  it("reads only the bytes appended to a file (plus the 64-byte check) and agrees with a fresh scan", async () => {
    const { root, cacheFile, a } = await setup();
    const manager = SessionManager.open(a);
    const sizeBefore = readFileSync(a).length;
    manager.appendMessage(userMessage("more"));
    manager.appendMessage(assistantMessage("and more"));
    const appended = readFileSync(a).length - sizeBefore;
    const report = await scanStores({ stores: piStores(root), cacheFile });
    expect(report.stats.filesRead).toBe(1);
    expect(report.stats.bytesRead).toBe(appended + 64);
    const fresh = await scanStores({ stores: piStores(root) });
    expect(report.sessions).toEqual(fresh.sessions);
    expect(byPath(report.sessions).get(a)!.messageCounts).toEqual({
      user: 3,
      assistant: 3,
      toolResult: 0,
      other: 0,
    });
  });

  it("re-reads a file rewritten in place in full", async () => {
    const { root, cacheFile, b } = await setup();
    const text = readFileSync(b, "utf8");
    const rewritten = text.replaceAll('"role":"user"', '"role":"bashExecution"');
    writeFileSync(b, `${rewritten}${rewritten.slice(rewritten.indexOf("\n") + 1)}`);
    const report = await scanStores({ stores: piStores(root), cacheFile });
    // Same inode and larger, so the 64 bytes before the old end are checked first; they differ,
    // so the whole file is read again.
    expect(report.stats.bytesRead).toBe(64 + readFileSync(b).length);
    expect(byPath(report.sessions).get(b)!.messageCounts).toEqual({
      user: 0,
      assistant: 2,
      toolResult: 0,
      other: 2,
    });
  });

  it("forgets a deleted file, in the report and in the facts store", async () => {
    const { root, cacheFile, a, b } = await setup();
    expect(factsPaths(cacheFile)).toEqual([a, b].sort());
    rmSync(a);
    const report = await scanStores({ stores: piStores(root), cacheFile });
    expect(report.sessions.map((s) => s.path)).not.toContain(a);
    expect(factsPaths(cacheFile)).toEqual([b]);
  });

  it("keeps the entries of other stores when one store is scanned alone", async () => {
    const { root, cacheFile } = await setup();
    const other = newRoot();
    writeSession(other, "/elsewhere", 1);
    expect((await scanStores({ stores: piStores(other), cacheFile })).stats.filesRead).toBe(1);
    // The first store's files were not read again: its entries survived the other store's scan.
    expect((await scanStores({ stores: piStores(root), cacheFile })).stats).toMatchObject({
      filesRead: 0,
      cacheHits: 2,
    });
  });

  it("ignores a corrupt cache file and rebuilds it", async () => {
    const { root, cacheFile } = await setup();
    writeFileSync(cacheFile, "{ this is not json");
    const report = await scanStores({ stores: piStores(root), cacheFile });
    expect(report.stats.filesRead).toBe(2);
    expect((await scanStores({ stores: piStores(root), cacheFile })).stats.filesRead).toBe(0);
  });

  it("a scan that fails midway leaves only true facts behind: the next scan agrees with a fresh one, and then reads nothing", async () => {
    // Enough files that what was read goes to the store in more than one transaction before the failure.
    const root = newRoot();
    const folder = join(root, "--many--");
    mkdirSync(folder);
    const files = Array.from({ length: 1200 }, (_, i) => {
      const id = `0190ffff-0000-7000-8000-${String(i).padStart(12, "0")}`;
      const file = join(folder, `2025-01-01T00-00-00-000Z_${id}.jsonl`);
      writeFileSync(
        file,
        `${JSON.stringify({ type: "session", version: 3, id, timestamp: "2025-01-01T00:00:00.000Z", cwd: "/many" })}\n`,
      );
      return file;
    });
    const cacheDir = newRoot();
    const cacheFile = join(cacheDir, "facts.db");
    expect((await scanStores({ stores: piStores(root), cacheFile })).stats.filesRead).toBe(1200);
    for (const file of files)
      appendFileSync(
        file,
        '{"type":"label","id":"1","parentId":null,"timestamp":"2025-01-02T00:00:00.000Z"}\n',
      );
    const failing = scanStores({
      stores: piStores(root),
      cacheFile,
      progressIntervalMs: 0,
      onProgress: (p) => {
        if (p.phase === "reading" && p.filesDone === 1100) throw new Error("stop here");
      },
    });
    await expect(failing).rejects.toThrow("stop here");
    expect(readdirSync(cacheDir)).toEqual(["facts.db"]); // closed: no write-ahead log left open
    const after = await scanStores({ stores: piStores(root), cacheFile });
    // The first 1,000 read were kept (their transaction was done): only the others are read again.
    expect(after.stats).toMatchObject({ filesRead: 200, cacheHits: 1000 });
    expect(after.sessions.every((s) => s.messageCount === 1)).toBe(true);
    expect(after.sessions).toEqual((await scanStores({ stores: piStores(root) })).sessions);
    expect((await scanStores({ stores: piStores(root), cacheFile })).stats).toMatchObject({
      filesRead: 0,
      cacheHits: 1200,
    });
  });

  it("sets a damaged database aside with a warning, reads every file again and makes it anew", async () => {
    const { root, cacheFile } = await setup();
    const fresh = await scanStores({ stores: piStores(root) });
    const bytes = readFileSync(cacheFile);
    bytes.fill(0x55, 100, bytes.length); // the header stays; every page after it is garbage
    writeFileSync(cacheFile, bytes);
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on("warning", onWarning);
    try {
      const report = await scanStores({ stores: piStores(root), cacheFile });
      expect(report.sessions).toEqual(fresh.sessions);
      expect(report.stats.filesRead).toBe(2);
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).toEqual([expect.stringMatching(/set aside as .*\.damaged-\d+ and made again/)]);
    expect(readdirSync(dirname(cacheFile)).filter((f) => f.includes(".damaged-"))).toHaveLength(1);
    expect((await scanStores({ stores: piStores(root), cacheFile })).stats).toMatchObject({
      filesRead: 0,
      cacheHits: 2,
    });
  });

  it("after a few files grew, reads only those again (resumed), and forgets a file that went", async () => {
    const root = newRoot();
    const files = Array.from({ length: 12 }, (_, i) =>
      writeSession(root, `/work/j${i % 3}`, 1).getSessionFile()!,
    );
    const cacheFile = join(newRoot(), "facts.db");
    await scanStores({ stores: piStores(root), cacheFile });
    for (const round of [1, 2]) {
      const grown = files.slice(round, round + 2);
      const appended = grown.map((file) => {
        const before = statSync(file).size;
        SessionManager.open(file).appendMessage(userMessage(`more ${round}`));
        return statSync(file).size - before;
      });
      const report = await scanStores({ stores: piStores(root), cacheFile });
      // Resumed where the last read ended: the bytes appended, and the 64 before them checked.
      expect(report.stats).toMatchObject({
        filesRead: 2,
        cacheHits: 10,
        bytesRead: appended[0]! + appended[1]! + 128,
      });
      expect(report.sessions).toEqual((await scanStores({ stores: piStores(root) })).sessions);
      expect((await scanStores({ stores: piStores(root), cacheFile })).stats).toMatchObject({
        filesRead: 0,
        cacheHits: 12,
      });
    }
    rmSync(files[0]!);
    const report = await scanStores({ stores: piStores(root), cacheFile });
    expect(report.stats).toMatchObject({ filesRead: 0, cacheHits: 11 });
    expect(factsPaths(cacheFile)).toEqual(files.slice(1).sort());
  });

  it("takes no database that is not its own, nor one of another version: set aside, every file read again as a fresh scan reads it", async () => {
    const { root, cacheFile } = await setup();
    const fresh = await scanStores({ stores: piStores(root) });
    const { DatabaseSync } = process.getBuiltinModule("node:sqlite") as unknown as {
      DatabaseSync: new (path: string) => { exec(sql: string): void; close(): void };
    };
    // Another program's database, with a table of the same name; then ours, of a later version.
    for (const make of [
      "CREATE TABLE facts (x); INSERT INTO facts VALUES (1);",
      "PRAGMA user_version = 99;",
    ]) {
      if (make.startsWith("CREATE")) rmSync(cacheFile);
      const db = new DatabaseSync(cacheFile);
      db.exec(make);
      db.close();
      const report = await scanStores({ stores: piStores(root), cacheFile });
      expect(report.stats).toMatchObject({ filesRead: 2, cacheHits: 0 });
      expect(report.sessions).toEqual(fresh.sessions);
      // Ours again: the next scan reads nothing.
      expect((await scanStores({ stores: piStores(root), cacheFile })).stats).toMatchObject({
        filesRead: 0,
        cacheHits: 2,
      });
    }
  });

  it("a database cut short anywhere: the report is a fresh scan's, and the next scan reads nothing", async () => {
    const root = newRoot();
    for (let i = 0; i < 12; i++) writeSession(root, `/work/p${i % 3}`, 1 + (i % 2));
    const many = join(root, piFolder("/work/many"));
    mkdirSync(many);
    for (let i = 0; i < 600; i++) {
      const id = `0190eeee-0000-7000-8000-${String(i).padStart(12, "0")}`;
      const header = {
        type: "session",
        version: 3,
        id,
        timestamp: "2025-01-01T00:00:00.000Z",
        cwd: "/work/many",
      };
      writeFileSync(join(many, `2025-01-01T00-00-00-000Z_${id}.jsonl`), `${JSON.stringify(header)}\n`);
    }
    const cacheFile = join(newRoot(), "facts.db");
    const fresh = await scanStores({ stores: piStores(root), cacheFile });
    const whole = readFileSync(cacheFile);
    const sorted = (r: ScanReport) => [...r.sessions].sort((x, y) => (x.path < y.path ? -1 : 1));
    for (const cut of [whole.length - 2, (whole.length * 2) >> 2, whole.length >> 2, 40, 0]) {
      writeFileSync(cacheFile, whole.subarray(0, cut));
      const report = await scanStores({ stores: piStores(root), cacheFile });
      expect(sorted(report)).toEqual(sorted(fresh));
      expect(report.summary).toEqual(fresh.summary);
      expect(report.stats.filesRead + report.stats.cacheHits).toBe(612);
      // Mended: the next scan reads nothing.
      expect((await scanStores({ stores: piStores(root), cacheFile })).stats.filesRead).toBe(0);
    }
  });
});

describe("a rescan given the previous report", () => {
  it("gives what a fresh scan gives, reuses unchanged records (copied where the last steps change them), and leaves the previous report alone", async () => {
    const { root, plain, big, branched, fork } = realisticStore();
    const metaDir = join(newRoot(), "sessions-meta");
    mkdirSync(metaDir);
    const meta = (id: string, fields: object) =>
      writeFileSync(join(metaDir, `${id}.meta.json`), JSON.stringify({ sessionId: id, ...fields }));
    meta(branched.getSessionId(), { description: "from the index", tags: ["t"] });
    meta(fork.getSessionId(), { description: "gone by the next scan" });
    const cacheFile = join(newRoot(), "cache.json");
    const first = await scanStores({ stores: piStores(root), cacheFile, metaDir });
    const before = structuredClone(first.sessions);

    // Changes the last steps make to records, on sessions that did not change on disk: a new fork of
    // `big`, a new index entry for it, and a second file with `plain`'s id (a duplicate).
    const forkFolder = join(root, piFolder("/home/dev/second-fork"));
    mkdirSync(forkFolder, { recursive: true });
    SessionManager.forkFrom(big.getSessionFile()!, "/home/dev/second-fork", forkFolder).appendMessage(
      assistantMessage("forked again"),
    );
    meta(big.getSessionId(), { summary: "now indexed" });
    rmSync(join(metaDir, `${fork.getSessionId()}.meta.json`));
    const copy = join(root, piFolder("/elsewhere"), "copy.jsonl");
    mkdirSync(join(root, piFolder("/elsewhere")), { recursive: true });
    writeFileSync(copy, readFileSync(plain.getSessionFile()!));
    appendFileSync(branched.getSessionFile()!, "\n"); // and one file that did change

    const second = await scanStores({ stores: piStores(root), cacheFile, metaDir, previous: first });
    const fresh = await scanStores({ stores: piStores(root), cacheFile, metaDir });
    const sorted = (r: typeof first) => [...r.sessions].sort((a, b) => (a.path < b.path ? -1 : 1));
    expect(sorted(second)).toEqual(sorted(fresh));
    expect(first.sessions).toEqual(before);
    expect(second.sessions.find((s) => s.path === fork.getSessionFile())!.description).toBeUndefined();
    expect(second.sessions.find((s) => s.path === big.getSessionFile())).toMatchObject({
      summary: "now indexed",
      forks: [expect.any(String)],
    });

    // Reused: the same record where the last steps did not change it, else a copy that shares what
    // never changes (`big`: a new fork and an index entry); built again: the changed file's.
    const firstByPath = byPath(first.sessions);
    const reused = second.sessions.filter((s) => s.fingerprint === firstByPath.get(s.path)?.fingerprint);
    expect(reused.map((s) => s.path)).toContain(big.getSessionFile());
    expect(reused.map((s) => s.path)).not.toContain(branched.getSessionFile());
    const same = reused.filter((s) => s === firstByPath.get(s.path)).map((s) => s.path);
    expect(same.length).toBeGreaterThan(0);
    expect(same).not.toContain(big.getSessionFile());
  });
});

describe("a server's rescans, one after another", () => {
  it("give what a fresh scan gives after every change, and leave the cache file as a full scan would", async () => {
    const { root, plain, big, branched, fork } = realisticStore();
    const metaDir = join(newRoot(), "sessions-meta");
    mkdirSync(metaDir);
    const meta = (id: string, fields: object) =>
      writeFileSync(join(metaDir, `${id}.meta.json`), JSON.stringify({ sessionId: id, ...fields }));
    meta(branched.getSessionId(), { description: "from the index" });
    const cacheFile = join(newRoot(), "cache.json");
    // Another store's entries share the cache file: a rescan of this root must keep them.
    const other = newRoot();
    const otherFile = writeSession(other, "/other", 2).getSessionFile()!;
    await scanStores({ stores: piStores(other), cacheFile });

    const sorted = (r: ScanReport) => [...r.sessions].sort((a, b) => (a.path < b.path ? -1 : 1));
    let look = await scanStores({ stores: piStores(root), cacheFile, metaDir });
    const rescan = async () => {
      const before = structuredClone(look.sessions);
      const next = await scanStores({ stores: piStores(root), cacheFile, metaDir, previous: look });
      expect(look.sessions).toEqual(before); // the last look's records, shared or not, never change
      // A fresh scan with a cache of its own reads every file.
      const fresh = await scanStores({
        stores: piStores(root),
        cacheFile: join(newRoot(), "c.json"),
        metaDir,
      });
      expect(sorted(next)).toEqual(sorted(fresh));
      expect(next.summary).toEqual(fresh.summary);
      expect(next.namespaces).toEqual(fresh.namespaces);
      expect(next.orphanedMeta).toEqual(fresh.orphanedMeta);
      // The store describes exactly the files there are (and still the other store's), each as it is.
      const facts = factsIdentities(cacheFile);
      expect([...facts.keys()].sort()).toEqual([...fresh.sessions.map((s) => s.path), otherFile].sort());
      for (const s of fresh.sessions) expect(sameIdentity(facts.get(s.path)!, s.fingerprint)).toBe(true);
      look = next;
      return next;
    };
    const cacheIdentity = () => {
      const { ino, mtimeMs } = statSync(cacheFile);
      return { ino, mtimeMs };
    };

    // Nothing changed: every record is reused and the cache file is not rewritten.
    const unchanged = cacheIdentity();
    expect((await rescan()).stats).toMatchObject({ filesRead: 0, cacheHits: 6 });
    expect(cacheIdentity()).toEqual(unchanged);

    // Only a file's mtime changes (same inode and size): it is read again, not taken for the old one.
    utimesSync(big.getSessionFile()!, new Date(), new Date(Date.now() + 60_000));
    expect((await rescan()).stats).toMatchObject({ filesRead: 1 });

    // A file grows and another is new.
    appendFileSync(branched.getSessionFile()!, "\n");
    const added = writeSession(root, "/home/dev/new", 2);
    expect((await rescan()).stats).toMatchObject({ filesRead: 2 });

    // Only pi's index changes: an entry added, one removed, one corrupt; and a new fork of `big`.
    meta(big.getSessionId(), { summary: "now indexed", tags: ["x"] });
    rmSync(join(metaDir, `${branched.getSessionId()}.meta.json`));
    writeFileSync(join(metaDir, `${plain.getSessionId()}.meta.json`), "{ not json");
    const forkFolder = join(root, piFolder("/home/dev/second-fork"));
    mkdirSync(forkFolder, { recursive: true });
    SessionManager.forkFrom(big.getSessionFile()!, "/home/dev/second-fork", forkFolder).appendMessage(
      assistantMessage("forked again"),
    );
    const third = await rescan();
    expect(third.sessions.find((s) => s.path === big.getSessionFile())).toMatchObject({
      summary: "now indexed",
      forks: [expect.any(String)],
    });
    expect(codes(third.sessions.find((s) => s.path === plain.getSessionFile()))).toContain("corrupt-meta");

    // Files deleted: `plain`'s fork (so `plain` has no fork any more) and a new one; a copy of `plain`
    // (a duplicate id); the index is repaired.
    rmSync(fork.getSessionFile()!);
    rmSync(added.getSessionFile()!);
    const copy = join(root, piFolder("/elsewhere"), "copy.jsonl");
    mkdirSync(join(root, piFolder("/elsewhere")), { recursive: true });
    writeFileSync(copy, readFileSync(plain.getSessionFile()!));
    rmSync(join(metaDir, `${plain.getSessionId()}.meta.json`));
    const fourth = await rescan();
    expect(fourth.sessions.find((s) => s.path === plain.getSessionFile())!.forks).toBeUndefined();
    const twins = fourth.sessions.filter((s) => s.path === copy || s.path === plain.getSessionFile());
    expect(twins.flatMap(codes)).toContain("duplicate-id");

    // Only a deletion: the cache forgets the file without any file being read.
    rmSync(copy);
    expect((await rescan()).stats).toMatchObject({ filesRead: 0 });

    // The same again: nothing to do.
    const settled = cacheIdentity();
    await rescan();
    expect(cacheIdentity()).toEqual(settled);
  });

  it("reads a file again that was unreadable last time, though its size and mtime did not change", async () => {
    const root = newRoot();
    const path = writeSession(root, "/p", 1).getSessionFile()!;
    const cacheFile = join(newRoot(), "cache.json");
    const first = await scanStores({ stores: piStores(root), cacheFile });
    // As if the last look could not read it (a permission since restored).
    first.sessions[0]!.warnings = [{ code: "unreadable", message: "could not read: EACCES" }];
    const next = await scanStores({ stores: piStores(root), cacheFile, previous: first });
    expect(next.sessions.find((s) => s.path === path)!.warnings).toEqual([]);
  });
});

describe("last used", () => {
  it("is the file's mtime by default and the last entry's timestamp with precise", async () => {
    const root = newRoot();
    const path = writeSession(root, "/p", 1).getSessionFile()!;
    setModified(path, new Date("2030-01-01T00:00:00.000Z"));
    const [plain] = (await scanStores({ stores: piStores(root) })).sessions;
    expect(plain!.lastUsedAt).toBe("2030-01-01T00:00:00.000Z");
    const [precise] = (await scanStores({ stores: piStores(root), precise: true })).sessions;
    const lastEntry = SessionManager.open(path).getEntries().at(-1)!;
    expect(precise!.lastUsedAt).toBe(lastEntry.timestamp);
  });
});
