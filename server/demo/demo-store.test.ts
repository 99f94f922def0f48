// The demo store must look like pi's own: pi's SessionManager has to read every generated file the
// way our scanner does, and the store must show what the dashboard is for (sizes, ages, forks…).
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScanReport } from "../../shared/scan-report.js";
import type { SessionRecord } from "../../shared/session-record.js";
import { scanStores } from "../scan/scanner.js";
import {
  type DemoStoreSummary,
  demoStoreMarkers,
  ensureDemoStore,
  generateDemoStore,
  piFolderName,
} from "./demo-store.js";
import { piStores } from "../../test-support/pi-stores.js";

const NOW = new Date("2026-03-15T12:00:00.000Z");
const SEED = 7;
const DAY = 24 * 60 * 60 * 1000;
const KB = 1024;
const MB = 1024 * KB;

let workDir: string;
let store: string;
let summary: DemoStoreSummary;
let report: ScanReport;

/** Every session file under a store, as paths relative to it. */
function sessionFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".jsonl"))
    .sort();
}

/** A file's lines, parsed, with the key order kept (JSON.parse keeps it). */
function readEntries(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

beforeAll(async () => {
  workDir = realpathSync(mkdtempSync(join(tmpdir(), "demo-store-")));
  store = join(workDir, "sessions");
  summary = generateDemoStore(store, { now: NOW, seed: SEED });
  report = await scanStores({ stores: piStores(store), now: () => NOW });
});

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

describe("generateDemoStore, read by pi itself", () => {
  it("opens every file with pi's SessionManager, with the header, entries and tree our scanner sees", () => {
    expect(report.sessions.length).toBe(summary.sessions);
    for (const record of report.sessions) {
      const before = statSync(record.path);
      const manager = SessionManager.open(record.path);
      expect(manager.getHeader()?.id).toBe(record.id);
      expect(manager.getSessionId()).toBe(record.id);
      expect(manager.getCwd()).toBe(record.namespace);
      expect(manager.getEntries().length).toBe(record.messageCount);
      expect(manager.getSessionName()).toBe(record.name);
      // Every parentId resolves: one root, no orphans (pi lists orphans as extra roots).
      expect(manager.getTree()).toHaveLength(1);
      expect(manager.buildSessionContext().messages.length).toBeGreaterThan(0);
      // A compaction keeps entries of the path it is on, or pi would drop them from the context.
      const path = manager.getBranch();
      for (const entry of path)
        if (entry.type === "compaction")
          expect(path.some((kept) => kept.id === entry.firstKeptEntryId)).toBe(true);
      // pi rewrites files it has to migrate or repair; a v3 file as pi writes it is left alone.
      const after = statSync(record.path);
      expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
    }
  });

  it("lists every folder with pi's SessionManager.list the way our scanner reports it", async () => {
    const byPath = new Map(report.sessions.map((record) => [record.path, record]));
    const folders = readdirSync(store);
    let listed = 0;
    for (const folder of folders) {
      const infos = await SessionManager.list("/unused-when-a-folder-is-given", join(store, folder));
      expect(infos.length).toBe(readdirSync(join(store, folder)).length);
      for (const info of infos) {
        const record = byPath.get(info.path);
        expect(record, info.path).toBeDefined();
        if (!record) continue;
        const { user, assistant, toolResult, other } = record.messageCounts;
        expect(info.messageCount).toBe(user + assistant + toolResult + other);
        expect(info.name).toBe(record.name);
        expect(info.cwd).toBe(record.namespace);
        expect(info.created.toISOString()).toBe(record.createdAt);
        expect(info.parentSessionPath).toBe(record.parentSession);
        expect(info.id).toBe(record.id);
        listed += 1;
      }
    }
    expect(listed).toBe(report.sessions.length);
  });
});

describe("generateDemoStore output", () => {
  it("is the same for the same seed and time, and different for another seed", () => {
    const again = join(workDir, "again", "sessions");
    const other = join(workDir, "other", "sessions");
    generateDemoStore(again, { now: NOW, seed: SEED });
    generateDemoStore(other, { now: NOW, seed: SEED + 1 });
    const files = sessionFiles(store);
    expect(sessionFiles(again)).toEqual(files);
    for (const file of files) {
      // Forks name their parent by absolute path: the only place the folder shows.
      const expected = readFileSync(join(store, file), "utf8");
      expect(readFileSync(join(again, file), "utf8").replaceAll(again, store)).toBe(expected);
      expect(statSync(join(again, file)).mtimeMs).toBe(statSync(join(store, file)).mtimeMs);
    }
    expect(sessionFiles(other)).not.toEqual(files);
  });

  it("refuses to overwrite files that are already there", () => {
    const again = join(workDir, "again", "sessions");
    expect(() => generateDemoStore(again, { now: NOW, seed: SEED })).toThrow(/EEXIST/);
  });

  it("gives the scanner no warnings and no problems", () => {
    expect(report.problems).toEqual([]);
    expect(report.sessions.filter((record) => record.warnings.length > 0)).toEqual([]);
  });

  it("has projects with awkward cwds, in pi's folder names", () => {
    const namespaces = new Set(report.sessions.map((record) => record.namespace));
    expect(namespaces.size).toBeGreaterThanOrEqual(6);
    expect([...namespaces].some((cwd) => cwd.includes(" "))).toBe(true);
    expect([...namespaces].some((cwd) => basename(cwd).includes("."))).toBe(true);
    expect([...namespaces].some((cwd) => basename(cwd).includes("-"))).toBe(true);
    for (const record of report.sessions)
      expect(basename(dirname(record.path))).toBe(piFolderName(record.namespace));
    expect(piFolderName("/home/a b/c.d-e")).toBe("--home-a b-c.d-e--");
  });

  it("has a realistic number of sessions and a spread of sizes, in 15–30 MB", () => {
    const sizes = report.sessions.map((record) => record.sizeBytes).sort((a, b) => a - b);
    expect(sizes.length).toBeGreaterThanOrEqual(60);
    expect(sizes.length).toBeLessThanOrEqual(90);
    expect(summary.bytes).toBe(sizes.reduce((sum, size) => sum + size, 0));
    expect(summary.bytes).toBeGreaterThan(15 * MB);
    expect(summary.bytes).toBeLessThan(30 * MB);
    const between = (min: number, max: number) => sizes.filter((size) => size >= min && size < max).length;
    expect(sizes[0]).toBeGreaterThanOrEqual(4 * KB);
    expect(between(0, 20 * KB)).toBeGreaterThanOrEqual(5);
    expect(between(20 * KB, 200 * KB)).toBeGreaterThanOrEqual(30);
    expect(between(1 * MB, 6 * MB)).toBeGreaterThanOrEqual(3);
    expect(sizes.at(-1)).toBeLessThan(6 * MB);
  });

  it("has sessions of every age: a few months old, many recent, two used within the hour", () => {
    const ageOf = (iso: string) => NOW.getTime() - Date.parse(iso);
    const created = report.sessions.map((record) => ageOf(record.createdAt));
    const lastUsed = report.sessions.map((record) => ageOf(record.lastUsedAt));
    expect(Math.max(...created)).toBeGreaterThan(90 * DAY);
    expect(Math.max(...created)).toBeLessThan(121 * DAY);
    expect(created.filter((age) => age > 60 * DAY).length).toBeGreaterThanOrEqual(3);
    expect(lastUsed.filter((age) => age < 14 * DAY).length).toBeGreaterThan(report.sessions.length / 4);
    expect(lastUsed.filter((age) => age < 60 * 60 * 1000).length).toBeGreaterThanOrEqual(2);
    expect(Math.min(...lastUsed)).toBeGreaterThanOrEqual(0);
  });

  it("has forks whose parentSession is another file of the store", () => {
    const paths = new Set(report.sessions.map((record) => record.path));
    const forks = report.sessions.filter((record) => record.parentSession);
    expect(forks.length).toBeGreaterThanOrEqual(2);
    for (const fork of forks) {
      expect(existsSync(fork.parentSession!)).toBe(true);
      expect(paths.has(realpathSync(fork.parentSession!))).toBe(true);
      expect(fork.parentSession).not.toBe(fork.path);
    }
    // One fork moved to another project.
    const namespaceOf = new Map(report.sessions.map((record) => [record.path, record.namespace]));
    expect(forks.some((fork) => namespaceOf.get(fork.parentSession!) !== fork.namespace)).toBe(true);
  });

  it("has large sessions with inline base64 PNG screenshots in tool results", () => {
    const large = report.sessions.filter((record) => record.sizeBytes >= MB);
    let images = 0;
    let lineOverOneMegabyte = false;
    for (const record of large) {
      for (const entry of readEntries(record.path)) {
        const message = entry.message as
          { role?: string; content?: Array<Record<string, unknown>> } | undefined;
        for (const block of message?.content ?? []) {
          if (block.type !== "image") continue;
          expect(message?.role).toBe("toolResult");
          expect(Object.keys(block)).toEqual(["type", "data", "mimeType"]);
          expect(block.mimeType).toBe("image/png");
          const png = Buffer.from(block.data as string, "base64");
          expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
          if (JSON.stringify(entry).length > MB) lineOverOneMegabyte = true;
          images += 1;
        }
      }
    }
    expect(large.length).toBeGreaterThanOrEqual(3);
    expect(images).toBeGreaterThanOrEqual(large.length * 2);
    // pi puts no limit on a line; a full-page screenshot makes one longer than the parser's cap.
    expect(lineOverOneMegabyte).toBe(true);
  });

  it("writes entries in pi's shapes: key order, ids, parent chains, times, names", () => {
    const seen = new Set<string>();
    let branches = 0;
    const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
    for (const record of report.sessions) {
      const [header, ...entries] = readEntries(record.path);
      expect(Object.keys(header!)).toEqual(
        record.parentSession
          ? ["type", "version", "id", "timestamp", "cwd", "parentSession"]
          : ["type", "version", "id", "timestamp", "cwd"],
      );
      expect(header!.version).toBe(3);
      const id = header!.id as string;
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const created = Date.parse(header!.timestamp as string);
      expect(Number.parseInt(id.replace("-", "").slice(0, 12), 16)).toBe(created);
      expect(basename(record.path)).toBe(
        `${(header!.timestamp as string).replace(/[:.]/g, "-")}_${id}.jsonl`,
      );

      const ids = new Set<string>();
      let previous: string | null = null;
      for (const entry of entries) {
        const keys = Object.keys(entry);
        const custom = entry.type === "custom";
        expect(keys.slice(custom ? 3 : 1, custom ? 6 : 4)).toEqual(["id", "parentId", "timestamp"]);
        expect(keys[0]).toBe("type");
        expect(entry.id).toMatch(/^[0-9a-f]{8}$/);
        expect(ids.has(entry.id as string)).toBe(false);
        expect(entry.parentId === null || ids.has(entry.parentId as string)).toBe(true);
        if (previous !== null && entry.parentId !== previous) branches += 1;
        ids.add(entry.id as string);
        previous = entry.id as string;
        expect(entry.timestamp).toMatch(iso);
        expect(Date.parse(entry.timestamp as string)).toBeLessThanOrEqual(NOW.getTime());
        seen.add(
          entry.type === "message"
            ? `message:${(entry.message as { role: string }).role}`
            : (entry.type as string),
        );
        if (entry.type === "message") checkMessage(entry.message as Record<string, unknown>);
      }
      // "Last used" is the file's mtime, and pi's last entry wrote it.
      expect(record.lastUsedAt).toBe(entries.at(-1)!.timestamp);
    }
    expect([...seen].sort()).toEqual(
      [
        "branch_summary",
        "compaction",
        "custom",
        "label",
        "message:assistant",
        "message:bashExecution",
        "message:toolResult",
        "message:user",
        "model_change",
        "session_info",
        "thinking_level_change",
      ].sort(),
    );
    expect(branches).toBeGreaterThanOrEqual(2);
  });

  it("names many sessions, and the latest name wins (an empty one clears it)", () => {
    const named = report.sessions.filter((record) => record.name);
    expect(named.length).toBeGreaterThan(report.sessions.length / 3);
    const infoCounts = report.sessions.map((record) => ({
      record,
      infos: readEntries(record.path).filter((entry) => entry.type === "session_info"),
    }));
    const cleared = infoCounts.find(({ infos }) => infos.at(-1)?.name === "");
    expect(cleared?.record.name).toBeUndefined();
    const renamed = infoCounts.find(({ infos }) => infos.length >= 2 && infos.at(-1)?.name !== "");
    expect(renamed?.record.name).toBe(renamed?.infos.at(-1)?.name);
  });

  it("agrees with the scanner's --precise last-used time", async () => {
    const precise = await scanStores({ stores: piStores(store), precise: true, now: () => NOW });
    for (const record of precise.sessions) expect(record.lastUsedAt).toBe(record.modifiedAt);
  });
});

/** An AgentMessage as pi-ai and pi's agent loop build it. */
function checkMessage(message: Record<string, unknown>) {
  const keys = Object.keys(message);
  if (message.role === "user") expect(keys).toEqual(["role", "content", "timestamp"]);
  if (message.role === "toolResult") {
    expect(keys.filter((key) => key !== "details")).toEqual([
      "role",
      "toolCallId",
      "toolName",
      "content",
      "isError",
      "timestamp",
    ]);
  }
  if (message.role === "assistant") {
    expect(keys.slice(0, 9)).toEqual([
      "role",
      "content",
      "api",
      "provider",
      "model",
      "usage",
      "stopReason",
      "timestamp",
      "responseId",
    ]);
    const usage = message.usage as {
      input: number;
      output: number;
      cacheRead: number;
      cacheWrite: number;
      totalTokens: number;
      cost: Record<string, number>;
    };
    expect(Object.keys(usage)).toEqual(["input", "output", "cacheRead", "cacheWrite", "totalTokens", "cost"]);
    expect(usage.totalTokens).toBe(usage.input + usage.output + usage.cacheRead + usage.cacheWrite);
    expect(Object.keys(usage.cost)).toEqual(["input", "output", "cacheRead", "cacheWrite", "total"]);
    for (const block of message.content as Array<Record<string, unknown>>) {
      if (block.type === "toolCall") expect(Object.keys(block)).toEqual(["type", "id", "name", "arguments"]);
    }
  }
  expect(typeof message.timestamp).toBe("number");
}

describe("ensureDemoStore", () => {
  const snapshot = (root: string) =>
    sessionFiles(root).map((file) => {
      const stat = statSync(join(root, file));
      return [file, stat.ino, stat.size, stat.mtimeMs];
    });

  it("generates once, then leaves a complete store alone", async () => {
    const root = join(workDir, "ensure", "sessions");
    await ensureDemoStore(root, { now: NOW, seed: SEED });
    const { complete, journal } = demoStoreMarkers(root);
    expect(dirname(complete)).toBe(dirname(root)); // next to the store, never inside it
    expect(existsSync(complete)).toBe(true);
    expect(sessionFiles(root)).toEqual(sessionFiles(store));
    expect(readFileSync(journal, "utf8").trimEnd().split("\n").length).toBe(
      sessionFiles(root).length + readdirSync(root).length,
    );
    const before = snapshot(root);
    const marker = readFileSync(complete, "utf8");
    await ensureDemoStore(root, { now: new Date(NOW.getTime() + DAY), seed: SEED });
    expect(snapshot(root)).toEqual(before);
    expect(readFileSync(complete, "utf8")).toBe(marker);
  });

  it("repairs a half-written store, removing only what it created", async () => {
    const base = join(workDir, "repair");
    const root = join(base, "sessions");
    await ensureDemoStore(root, { now: NOW, seed: SEED });
    const { complete, journal } = demoStoreMarkers(root);
    const oldFiles = sessionFiles(root);

    // A crash before the marker: no marker, a file cut short.
    rmSync(complete);
    truncateSync(join(root, oldFiles[0]!), 100);
    // Other people's files: next to the store, in it, in a folder the generator made, in their own folder.
    const ownFolder = readdirSync(root)[0]!;
    const theirs = [
      join(base, "keep.txt"),
      join(root, "notes.txt"),
      join(root, ownFolder, "2026-01-01T00-00-00-000Z_mine.jsonl"),
      join(root, "--elsewhere--", "session.jsonl"),
    ];
    mkdirSync(join(root, "--elsewhere--"));
    for (const path of theirs) writeFileSync(path, "not the generator's\n");
    // A journal line must never reach outside the store, or through a symlink.
    const outside = join(base, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "victim.jsonl"), "keep me\n");
    symlinkSync(outside, join(root, "--link--"));
    for (const line of [
      "../keep.txt",
      "--link--/victim.jsonl",
      join(outside, "victim.jsonl"),
      "--elsewhere--",
    ])
      appendFileSync(journal, `${JSON.stringify(line)}\n`);
    appendFileSync(journal, '"--half-written-li'); // cut off by the crash

    const later = new Date(NOW.getTime() + DAY);
    await ensureDemoStore(root, { now: later, seed: SEED });

    for (const path of theirs) expect(readFileSync(path, "utf8")).toBe("not the generator's\n");
    expect(readFileSync(join(outside, "victim.jsonl"), "utf8")).toBe("keep me\n");
    expect(existsSync(complete)).toBe(true);
    const fresh = join(workDir, "repair-expected", "sessions");
    generateDemoStore(fresh, { now: later, seed: SEED });
    const foreign = [
      "--elsewhere--/session.jsonl",
      "--link--/victim.jsonl",
      `${ownFolder}/2026-01-01T00-00-00-000Z_mine.jsonl`,
    ];
    // (--link--/victim.jsonl shows through the symlink in this listing; the scanner does not follow it.)
    expect(sessionFiles(root)).toEqual([...sessionFiles(fresh), ...foreign].sort());
    for (const file of oldFiles) expect(existsSync(join(root, file))).toBe(false);

    const scanned = await scanStores({ stores: piStores(root), now: () => later });
    const generated = scanned.sessions.filter(
      (record: SessionRecord) => !record.path.includes("mine") && !record.path.includes("elsewhere"),
    );
    expect(generated.length).toBe(sessionFiles(fresh).length);
    expect(generated.every((record) => record.warnings.length === 0)).toBe(true);
  });

  it("regenerates when the store folder is gone but the marker is still there", async () => {
    const root = join(workDir, "gone", "sessions");
    await ensureDemoStore(root, { now: NOW, seed: SEED });
    rmSync(root, { recursive: true });
    await ensureDemoStore(root, { now: NOW, seed: SEED });
    expect(sessionFiles(root)).toEqual(sessionFiles(store));
  });
});
