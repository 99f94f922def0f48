// Codex's store end to end, against stores written by test-support/codex-store.ts from the formats:
// what a scan finds (every field, checked against the generator's own account of what it wrote).
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatBytes } from "../../../shared/format.js";
import type { SessionRecord } from "../../../shared/session-record.js";
import {
  CodexStoreBuilder,
  type ExpectedSession,
  writeCodexStore,
} from "../../../test-support/codex-store.js";
import { mkfifo, neverBlockedBy } from "../../../test-support/fifo.js";
import { resolveStores } from "../../scan/resolve-roots.js";
import { scanStores } from "../../scan/scanner.js";
import { MAX_LINES } from "../read-caps.js";
import { SESSION_INDEX } from "./location.js";
import { readRollout } from "./rollout.js";

const newHome = () => realpathSync(mkdtempSync(join(tmpdir(), "sr-codex-")));
const scan = (root: string) => scanStores({ stores: [{ kind: "codex", root }] });

/** A record in the generator's terms. */
const asSession = (r: SessionRecord): ExpectedSession => ({
  id: r.id,
  path: r.path,
  namespace: r.namespace,
  createdAt: r.createdAt,
  lastUsedAt: r.lastUsedAt,
  messageCount: r.messageCount,
  messageCounts: r.messageCounts,
  ...(r.name !== undefined ? { name: r.name } : {}),
  bundle: [...(r.bundle ?? [])].sort(),
  sizeBytes: r.sizeBytes,
  ...(r.parentSession !== undefined ? { parentSession: r.parentSession } : {}),
  ...(r.family !== undefined ? { family: r.family } : {}),
  neededBy: [...(r.neededBy ?? [])].sort(),
  warnings: r.warnings.map((w) => w.code).sort(),
});

const byId = <T extends { id: string }>(items: readonly T[]) =>
  [...items].sort((a, b) => (a.id < b.id ? -1 : 1));

describe("scan of a Codex store", () => {
  it("finds every session with the facts the generator wrote: id, cwd, times, counts, name, subagents, size, forks, family", async () => {
    const store = writeCodexStore(join(newHome(), ".codex"));
    const report = await scan(store.root);
    expect(byId(report.sessions.map(asSession))).toEqual(byId(store.sessions));
    // 13 threads: the root's two subagents (one spawned by the other) and the fork's one are bundled.
    expect(store.threads).toHaveLength(13);
    expect(report.sessions).toHaveLength(10);
    const families = new Map<string, number>();
    for (const s of report.sessions)
      if (s.family !== undefined) families.set(s.family, (families.get(s.family) ?? 0) + 1);
    expect([...families.values()].sort()).toEqual([2, 3]);
    // The pointer forks keep what they read from; the old copied fork keeps nothing.
    expect(report.sessions.filter((s) => s.neededBy).map((s) => s.neededBy!.length)).toEqual([1, 1]);
  });

  it("reports what in the rollout folders is not a rollout, and never mentions Codex's own files", async () => {
    const store = writeCodexStore(join(newHome(), ".codex"));
    const report = await scan(store.root);
    expect(report.problems.map((p) => p.path).sort()).toEqual([...store.notSessions].sort());
    for (const own of store.codexOwn) expect(JSON.stringify(report)).not.toContain(own);
  });

  it("a compressed rollout is decoded; beside its plain file it is the same session, in its bundle", async () => {
    const store = writeCodexStore(join(newHome(), ".codex"));
    const only = store.threads.find((t) => t.options.compressed === "only")!;
    const both = store.threads.find((t) => t.options.compressed === "both")!;
    const report = await scan(store.root);
    const compressed = report.sessions.find((s) => s.id === `codex:${only.id}`)!;
    expect(compressed.path.endsWith(".jsonl.zst")).toBe(true);
    expect(compressed.namespace).toBe("/home/dev/api");
    const plain = report.sessions.find((s) => s.id === `codex:${both.id}`)!;
    expect(plain.path).toBe(both.path);
    expect(plain.bundle).toEqual([both.compressedSibling]);
  });

  it("a header of 3 MiB (a huge base_instructions) still gives its id and cwd, read from its first bytes, and says so", async () => {
    const store = writeCodexStore(join(newHome(), ".codex"));
    const huge = store.threads.find((t) => (t.options.baseInstructionsBytes ?? 0) > 1024 * 1024)!;
    const { facts } = readRollout(huge.path);
    expect(facts.headerTooLong).toBe(true);
    expect(facts.header).toMatchObject({ id: huge.id, cwd: "/home/dev/docs", source: "cli" });
    const record = (await scan(store.root)).sessions.find((s) => s.id === `codex:${huge.id}`)!;
    expect(record.warnings).toEqual([
      {
        code: "line-too-long",
        message: "its session_meta line is over 1 MiB: its fields are read from its first and last 64 KiB",
      },
    ]);
  });

  it("takes the first prompt the user typed, not the environment or AGENTS.md Codex injects, from a line's first bytes", () => {
    const thread = "0199a2b3-c4d5-7e6f-8a9b-0c1d2e3f4a5b";
    const at = "2026-03-01T10:00:00.000Z";
    const line = (type: string, payload: Record<string, unknown>) =>
      JSON.stringify({ timestamp: at, type, payload });
    const user = (text: string) =>
      line("response_item", { type: "message", role: "user", content: [{ type: "input_text", text }] });
    const prompt = `Überprüfe "die" Tests\n${"✓ ".repeat(5_000)}`;
    const lines = [
      line("session_meta", { id: thread, timestamp: at, cwd: "/home/dev/app", cli_version: "0.46.0" }),
      user("# AGENTS.md instructions for /home/dev/app\n\nbe brief"),
      user("<environment_context>\n  <cwd>/home/dev/app</cwd>\n</environment_context>"),
      line("response_item", {
        type: "message",
        role: "assistant",
        content: [{ type: "output_text", text: "not a prompt" }],
      }),
      user(prompt),
      line("event_msg", { type: "user_message", message: prompt, images: [] }),
      user("a later prompt"),
    ];
    const path = join(newHome(), `rollout-2026-03-01T10-00-00-${thread}.jsonl`);
    writeFileSync(path, lines.join("\n") + "\n");
    const { facts } = readRollout(path);
    expect(facts.firstMessage).toMatch(/^Überprüfe "die" Tests ✓ ✓/);
    expect(facts.firstMessage!.endsWith("…")).toBe(true);
    expect(facts.counts).toEqual({ user: 4, assistant: 1, other: 1 });

    // A rollout whose only prompt is in a user_message event (a newer Codex's order) still has one.
    writeFileSync(
      path,
      [lines[0], lines[2], line("event_msg", { type: "user_message", message: "ship it" })].join("\n"),
    );
    expect(readRollout(path).facts.firstMessage).toBe("ship it");
  });

  it("the generator is deterministic: one seed, the same bytes in any folder", async () => {
    const a = writeCodexStore(join(newHome(), ".codex"));
    const b = writeCodexStore(join(newHome(), ".codex"));
    const relative = (facts: typeof a) =>
      facts.sessions.map((s) => ({
        ...s,
        path: s.path.slice(facts.root.length),
        bundle: s.bundle.map((p) => p.slice(facts.root.length)),
        parentSession: s.parentSession?.slice(facts.root.length),
      }));
    expect(relative(a)).toEqual(relative(b));
  });

  it("a subagent whose spawner is gone is a session of its own", async () => {
    const b = new CodexStoreBuilder(join(newHome(), ".codex"));
    const parent = b.thread({ cwd: "/home/dev/x", turns: 1 });
    const child = b.thread({ cwd: "/home/dev/x", turns: 1, spawnedBy: parent });
    const store = b.finish();
    writeFileSync(parent.path, ""); // emptied: still there, a session with a warning
    const report = await scan(store.root);
    expect(report.sessions.find((s) => s.id === `codex:${parent.id}`)!.bundle).toEqual([child.path]);
    const { rmSync } = await import("node:fs");
    rmSync(parent.path);
    const after = await scan(store.root);
    expect(after.sessions.map((s) => s.id)).toEqual([`codex:${child.id}`]);
  });

  it("the place gate judges a Codex root like any other: not /, not home, not inside another store", () => {
    const home = newHome();
    const root = join(home, ".codex");
    writeCodexStore(root);
    const env = { ...process.env, HOME: home };
    for (const bad of ["/", home, "/etc"])
      expect(() => resolveStores({ stores: [{ kind: "codex", root: bad }] }, env)).toThrow(/refused|not/);
    expect(() =>
      resolveStores(
        {
          stores: [
            { kind: "codex", root },
            { kind: "codex", root: join(root, "sessions") },
          ],
        },
        env,
      ),
    ).toThrow(/inside/);
  });

  it("is found on its own at $CODEX_HOME once it has sessions/", () => {
    const home = newHome();
    const root = join(home, "codex-home");
    writeCodexStore(root);
    const env = { ...process.env, HOME: home, CODEX_HOME: root };
    expect(resolveStores({ stores: [], discover: ["codex"] }, env).stores).toEqual([{ kind: "codex", root }]);
  });
});

describe("reading a Codex store is bounded", () => {
  it("a rollout of more lines than the cap is read to the cap: what came before counted, a warning, never older than its file", async () => {
    const b = new CodexStoreBuilder(join(newHome(), ".codex"));
    const thread = b.thread({ cwd: "/home/dev/long", turns: 1, ageDays: 30 });
    const store = b.finish();
    const [header] = readFileSync(thread.path, "utf8").split("\n");
    const after = JSON.stringify({
      timestamp: "2026-01-31T10:00:00.000Z",
      type: "response_item",
      payload: { type: "message", role: "user", content: [{ type: "input_text", text: "after the cap" }] },
    });
    // The header, then blank lines up to the cap (they count: a file of newlines costs one step
    // each), then a message no read may reach.
    writeFileSync(thread.path, `${header}\n${"\n".repeat(MAX_LINES - 1)}${after}\n`);
    const { facts } = readRollout(thread.path);
    expect(facts.capped).toEqual({
      cap: "lines",
      lines: MAX_LINES,
      bytes: Buffer.byteLength(header!) + MAX_LINES,
    });
    expect(facts.counts).toEqual({ user: 0, assistant: 0, other: 0 });
    const record = (await scan(store.root)).sessions.find((s) => s.id === `codex:${thread.id}`)!;
    expect(record.warnings).toEqual([
      {
        code: "read-capped",
        message: `reading stopped at the cap of 2,000,000 lines a file; the 2,000,000 lines (${formatBytes(Buffer.byteLength(header!) + MAX_LINES)}) read are counted, the rest is not (its size on disk is counted whole)`,
      },
    ]);
    expect(record.sizeBytes).toBe(statSync(thread.path).size);
    // What follows the cap may be later than anything read: its file's time stands in.
    expect(record.lastUsedAt).toBe(record.modifiedAt);
  });

  it("a session_index.jsonl that is a FIFO: the scan reads no names from it, and never waits on it", async () => {
    const b = new CodexStoreBuilder(join(newHome(), ".codex"));
    const thread = b.thread({ cwd: "/home/dev/app", turns: 1, names: ["named"] });
    const store = b.finish();
    rmSync(join(store.root, SESSION_INDEX));
    const fifo = mkfifo(join(store.root, SESSION_INDEX));
    const report = await neverBlockedBy(fifo, () => scan(store.root));
    const record = report.sessions.find((s) => s.id === `codex:${thread.id}`)!;
    expect(record.name).toBeUndefined();
  });
});
