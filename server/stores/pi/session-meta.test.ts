// pi's session index joined onto scanned records: matching, orphaned and corrupt meta files.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeSession } from "../../../test-support/pi-store.js";
import { scanStores } from "../../scan/scanner.js";
import { piStores } from "../../../test-support/pi-stores.js";

function setup() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "sr-meta-")));
  const root = join(base, "sessions");
  const metaDir = join(base, "sessions-meta");
  mkdirSync(metaDir, { recursive: true });
  const plain = writeSession(root, "/work/app", 1);
  const named = writeSession(root, "/work/app", 1, { name: "pi's own name" });
  const broken = writeSession(root, "/work/lib", 1);
  const meta = (id: string, fields: object) =>
    writeFileSync(join(metaDir, `${id}.meta.json`), JSON.stringify({ sessionId: id, ...fields }));
  meta(plain.getSessionId(), {
    name: "index name",
    description: "what it was about",
    summary: "a summary",
    tags: ["billing", "bug"],
    parentSessionFile: "/parent.jsonl",
    cwd: "/work/app",
    model: "m",
  });
  meta(named.getSessionId(), { name: "index name loses", tags: [] });
  writeFileSync(join(metaDir, `${broken.getSessionId()}.meta.json`), "{ not json");
  meta("0190aaaa-0000-7000-8000-000000000000", { name: "session is gone" });
  return { root, metaDir, plain, named, broken };
}

describe("pi session index", () => {
  it("joins name, description, summary, tags and the parent; pi's own name wins; corrupt files warn", async () => {
    const s = setup();
    const report = await scanStores({ stores: piStores(s.root), metaDir: s.metaDir });
    const byId = new Map(report.sessions.map((r) => [r.id, r]));
    expect(byId.get(s.plain.getSessionId())).toMatchObject({
      name: "index name",
      description: "what it was about",
      summary: "a summary",
      tags: ["billing", "bug"],
      parentSession: "/parent.jsonl",
      metaFile: join(s.metaDir, `${s.plain.getSessionId()}.meta.json`),
    });
    const named = byId.get(s.named.getSessionId())!;
    expect(named.name).toBe("pi's own name");
    expect(named.tags).toBeUndefined();
    const broken = byId.get(s.broken.getSessionId())!;
    expect(broken.warnings).toEqual([
      expect.objectContaining({ code: "corrupt-meta", message: expect.stringContaining("not valid JSON") }),
    ]);
    expect(broken.metaFile).toBeDefined(); // still moves with its session
  });

  it("lists meta files whose session is gone as orphans", async () => {
    const s = setup();
    const report = await scanStores({ stores: piStores(s.root), metaDir: s.metaDir });
    expect(report.orphanedMeta).toEqual([
      {
        path: join(s.metaDir, "0190aaaa-0000-7000-8000-000000000000.meta.json"),
        sessionId: "0190aaaa-0000-7000-8000-000000000000",
        sizeBytes: expect.any(Number),
      },
    ]);
  });

  it("a meta file naming another session is a warning", async () => {
    const s = setup();
    writeFileSync(
      join(s.metaDir, `${s.plain.getSessionId()}.meta.json`),
      JSON.stringify({ sessionId: "someone-else", name: "x" }),
    );
    const report = await scanStores({ stores: piStores(s.root), metaDir: s.metaDir });
    const plain = report.sessions.find((r) => r.id === s.plain.getSessionId())!;
    expect(plain.warnings.map((w) => w.message)).toEqual([
      expect.stringContaining("names session someone-else"),
    ]);
  });

  it("a meta file over 1 MiB is not read: a warning that says so, and nothing of it on the record", async () => {
    const s = setup();
    const path = join(s.metaDir, `${s.plain.getSessionId()}.meta.json`);
    writeFileSync(
      path,
      JSON.stringify({ sessionId: s.plain.getSessionId(), name: "n", summary: "s".repeat(1024 * 1024) }),
    );
    const report = await scanStores({ stores: piStores(s.root), metaDir: s.metaDir });
    const plain = report.sessions.find((r) => r.id === s.plain.getSessionId())!;
    expect(plain.warnings).toEqual([
      {
        code: "corrupt-meta",
        message: expect.stringMatching(/^session index file .* over the limit of 1\.00 MiB/),
      },
    ]);
    expect(plain.name).toBeUndefined();
    expect(plain.metaFile).toBeUndefined();
  });

  it("without the index folder nothing changes", async () => {
    const s = setup();
    const report = await scanStores({ stores: piStores(s.root), metaDir: join(s.metaDir, "missing") });
    expect(report.orphanedMeta).toEqual([]);
    expect(report.sessions.every((r) => r.description === undefined)).toBe(true);
  });
});

describe("fork lineage", () => {
  it("is shown both ways: the child names its parent, the parent lists its forks", async () => {
    const s = setup();
    const parentPath = s.named.getSessionFile()!;
    // A fork as pi writes it: a new file whose header names the parent session's file.
    const forkId = "0190bbbb-0000-7000-8000-000000000001";
    const fork = join(s.root, "--work-app--", `2026-01-01T00-00-00-000Z_${forkId}.jsonl`);
    writeFileSync(
      fork,
      `${JSON.stringify({ type: "session", version: 3, id: forkId, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/work/app", parentSession: parentPath })}\n`,
    );
    const report = await scanStores({ stores: piStores(s.root), metaDir: s.metaDir });
    const byId = new Map(report.sessions.map((r) => [r.id, r]));
    expect(byId.get(forkId)!.parentSession).toBe(parentPath);
    expect(byId.get(s.named.getSessionId())!.forks).toEqual([forkId]);
  });
});
