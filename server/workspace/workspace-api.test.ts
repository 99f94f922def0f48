// The sandbox workspace pruning API and its commands, on real workspace folders.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../cli/main.js";
import type { PruneJson } from "../cli/workspace-commands.js";
import { listTrash, restore } from "../delete/deletion-engine.js";
import { addPins } from "../state/protection-list.js";
import { statePaths } from "../state/state-dir.js";
import {
  createSessionMetadata,
  type PruneLogLine,
  pruneSessions,
  repairSessionMetadata,
  touchSession,
} from "./workspace-api.js";

const HOUR = 3_600_000;
const NOW = new Date();
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * HOUR);

/** Workspaces last updated `hours` ago (files a day older, so the grace window does not apply). */
function workspaces(spec: Record<string, number | "missing" | "corrupt">) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-prune-")));
  for (const [id, updated] of Object.entries(spec)) {
    const dir = join(root, id);
    mkdirSync(dir);
    writeFileSync(join(dir, "main.py"), `print("${id}")\n`);
    if (updated === "corrupt") writeFileSync(join(dir, ".metadata.json"), "{");
    else if (updated !== "missing")
      writeFileSync(
        join(dir, ".metadata.json"),
        JSON.stringify({
          created_at: hoursAgo(updated + 10).toISOString(),
          updated_at: hoursAgo(updated).toISOString(),
        }),
      );
    for (const name of ["main.py", ".metadata.json", ""])
      if (existsSync(join(dir, name))) utimesSync(join(dir, name), hoursAgo(200), hoursAgo(200));
  }
  return root;
}

const config = () => {
  const file = join(mkdtempSync(join(tmpdir(), "sr-cfg-")), "c.json");
  writeFileSync(file, JSON.stringify({ deletion: { target: "quarantine" } }));
  return { file, sets: [] };
};

describe("metadata helpers", () => {
  it("createSessionMetadata writes both times once; touchSession moves only updated_at", () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "sr-ws-")));
    const created = createSessionMetadata(dir, new Date("2026-01-01T00:00:00Z"));
    expect(created).toEqual({
      created_at: "2026-01-01T00:00:00.000Z",
      updated_at: "2026-01-01T00:00:00.000Z",
    });
    expect(createSessionMetadata(dir, new Date("2026-02-01T00:00:00Z"))).toEqual(created);
    const touched = touchSession(dir, new Date("2026-03-01T00:00:00Z"));
    expect(touched).toEqual({
      created_at: "2026-01-01T00:00:00.000Z",
      updated_at: "2026-03-01T00:00:00.000Z",
    });
    expect(JSON.parse(readFileSync(join(dir, ".metadata.json"), "utf8"))).toEqual(touched);
  });

  it("never writes into a folder that does not exist", () => {
    expect(() => touchSession("/nonexistent/workspace")).toThrow("is not a workspace folder");
    expect(existsSync("/nonexistent/workspace")).toBe(false);
  });

  it("repairSessionMetadata rebuilds missing or corrupt metadata from file times; valid metadata is left alone", () => {
    const root = workspaces({ bad: "corrupt", good: 5 });
    const dir = join(root, "bad");
    utimesSync(join(dir, "main.py"), new Date("2025-05-05T00:00:00Z"), new Date("2025-05-05T00:00:00Z"));
    const dry = repairSessionMetadata(dir, { dryRun: true });
    expect(dry.status).toBe("would-repair");
    expect(readFileSync(join(dir, ".metadata.json"), "utf8")).toBe("{");
    const repaired = repairSessionMetadata(dir);
    expect(repaired).toMatchObject({
      status: "repaired",
      metadata: { created_at: "2025-05-05T00:00:00.000Z", updated_at: "2025-05-05T00:00:00.000Z" },
    });
    expect(repairSessionMetadata(join(root, "good")).status).toBe("ok");
  });
});

describe("pruneSessions", () => {
  it("prunes by updated_at at the olderThanHours boundary; a folder of unknown age is skipped; every decision is logged", async () => {
    const root = workspaces({ old: 30, edge: 24.01, young: 23.9, missing: "missing", corrupt: "corrupt" });
    const log: PruneLogLine[] = [];
    const result = await pruneSessions({
      olderThanHours: 24,
      workspaceRoot: root,
      config: config(),
      log: (l) => log.push(l),
      now: NOW,
    });
    expect(result.candidates.map((c) => c.id).sort()).toEqual(["edge", "old"]);
    expect(result.deleted.map((d) => d.id).sort()).toEqual(["edge", "old"]);
    expect(result.skipped.map((s) => [s.id, s.reason]).sort()).toEqual([
      ["corrupt", expect.stringContaining(".metadata.json is not JSON")],
      ["missing", expect.stringContaining("no .metadata.json: age unknown, never pruned")],
    ]);
    expect(result.bytesReclaimed).toBeGreaterThan(0);
    expect(existsSync(join(root, "young"))).toBe(true);
    expect(existsSync(join(root, "old"))).toBe(false);
    expect(log.filter((l) => l.event === "prune.deleted")).toHaveLength(2);
    expect(log.filter((l) => l.event === "prune.skipped")).toHaveLength(2);
    expect(log.at(-1)).toMatchObject({ event: "prune.done", deleted: 2, skipped: 2, dryRun: false });
    // Soft, not gone: the trash has them, and they come back.
    const entries = listTrash({ actor: "cli" }).entries.filter((e) => e.originalPath.startsWith(root));
    expect(entries.map((e) => e.state)).toEqual(["in-trash", "in-trash"]);
    await restore(
      entries.map((e) => e.entryId),
      { actor: "cli" },
    );
    expect(readFileSync(join(root, "old", "main.py"), "utf8")).toBe('print("old")\n');
  });

  it("a dry run deletes nothing and says what it would do", async () => {
    const root = workspaces({ old: 48 });
    const log: PruneLogLine[] = [];
    const result = await pruneSessions({
      olderThanHours: 24,
      workspaceRoot: root,
      dryRun: true,
      config: config(),
      log: (l) => log.push(l),
    });
    expect(result.candidates.map((c) => c.id)).toEqual(["old"]);
    expect(result.deleted).toEqual([]);
    expect(existsSync(join(root, "old"))).toBe(true);
    expect(log.map((l) => l.event)).toEqual(["prune.candidate", "prune.done"]);
  });

  it("a pinned workspace is skipped with its reason", async () => {
    const root = workspaces({ old: 48 });
    addPins(statePaths().protectedList, [{ id: "workspace:old", path: join(root, "old") }]);
    const result = await pruneSessions({
      olderThanHours: 24,
      workspaceRoot: root,
      config: config(),
      log: () => {},
    });
    expect(result.skipped).toEqual([{ id: "old", reason: "pinned: pinned by you" }]);
    expect(existsSync(join(root, "old"))).toBe(true);
  });

  it("refuses a nonsensical threshold", async () => {
    await expect(pruneSessions({ olderThanHours: 0, workspaceRoot: "/tmp" })).rejects.toThrow(
      "olderThanHours",
    );
  });
});

describe("prune, touch and repair-metadata commands", () => {
  async function run(argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const status = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
    return { status, stdout: out.join("\n"), stderr: err.join("\n") };
  }

  it("prune --dry-run logs JSON lines and deletes nothing; without a terminal it needs --yes", async () => {
    // (Not "old": the pin of the test above is still in this file's state dir.)
    const root = workspaces({ stale: 48, young: 1 });
    const cfg = config();
    const dry = await run([
      "prune",
      "--older-than",
      "24h",
      "--store",
      `workspace:${root}`,
      "--dry-run",
      "--config",
      cfg.file,
    ]);
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain("1 workspace idle for more than 24h");
    expect(dry.stderr.split("\n").map((l) => JSON.parse(l).event)).toEqual(["prune.candidate", "prune.done"]);
    expect(existsSync(join(root, "stale"))).toBe(true);
    const refused = await run([
      "prune",
      "--older-than",
      "24h",
      "--store",
      `workspace:${root}`,
      "--config",
      cfg.file,
    ]);
    expect(refused).toMatchObject({ status: 2, stderr: expect.stringContaining("pass --yes") });
    const done = await run([
      "prune",
      "--older-than",
      "1d",
      "--store",
      `workspace:${root}`,
      "--yes",
      "--config",
      cfg.file,
    ]);
    expect(done.status).toBe(0);
    expect(done.stdout).toContain("Pruned 1 workspace");
    expect(existsSync(join(root, "stale"))).toBe(false);
    expect(existsSync(join(root, "young"))).toBe(true);
  });

  it("prune --json prints one document per run, and a refusal as JSON with a non-zero exit", async () => {
    const root = workspaces({ stale: 48, young: 1 });
    const args = ["prune", "--older-than", "24h", "--store", `workspace:${root}`, "--config", config().file];
    const refused = await run([...args, "--json"]);
    expect(refused.status).toBe(2);
    expect(JSON.parse(refused.stdout)).toEqual({
      ok: false,
      exitCode: 2,
      errors: [expect.stringContaining("pass --yes")],
    });
    const done = await run([...args, "--json", "--yes"]);
    expect(done.status).toBe(0);
    const document = JSON.parse(done.stdout) as PruneJson;
    expect(document.dryRun).toBe(false);
    expect(document.roots).toHaveLength(1);
    expect(document.roots[0]!.preview.candidates.map((c) => c.id)).toEqual(["stale"]);
    expect(document.roots[0]!.result!.deleted.map((d) => d.id)).toEqual(["stale"]);
    expect(existsSync(join(root, "stale"))).toBe(false);
    const bad = await run(["prune", "--older-than", "1m", "--store", `workspace:${root}`, "--json"]);
    expect(bad.status).toBe(2);
    expect(JSON.parse(bad.stdout).errors[0]).toContain("did you mean 1mo (month) or 1min?");
  });

  it("touch and repair-metadata", async () => {
    const root = workspaces({ a: "missing" });
    expect((await run(["repair-metadata", join(root, "a"), "--dry-run"])).stdout).toContain("would repair");
    expect((await run(["repair-metadata", join(root, "a")])).stdout).toContain("repaired");
    const touched = await run(["touch", join(root, "a")]);
    expect(touched.status).toBe(0);
    const metadata = JSON.parse(readFileSync(join(root, "a", ".metadata.json"), "utf8"));
    expect(Date.now() - Date.parse(metadata.updated_at)).toBeLessThan(60_000);
    expect((await run(["touch", join(root, "nope")])).status).toBe(2);
  });

  it("prune needs a workspace store", async () => {
    expect(await run(["prune", "--older-than", "24h", "--store", "agentsh:/tmp"])).toMatchObject({
      status: 2,
    });
  });
});
