// agentsh session folders and sandbox workspaces, end to end: scanned, policed, soft-deleted as one
// unit and restored byte-identical — beside pi sessions in one scan, one plan and one clean.
import { createHash } from "node:crypto";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeConfigFile } from "../../test-support/config-file.js";
import { describe, expect, it } from "vitest";
import { ConfigSchema } from "../../shared/config.js";
import { PlanSchema } from "../../shared/plan.js";
import { setModified, writeSession } from "../../test-support/pi-store.js";
import { runCli } from "../cli/main.js";
import { restore, softDelete } from "../delete/deletion-engine.js";
import { scanStores } from "../scan/scanner.js";
import { MAX_LINES } from "./read-caps.js";

const DAY = 86_400_000;
const at = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY);

function touchTree(path: string, when: Date) {
  utimesSync(path, when, when);
}

/** agentsh: an old session (log, a nested file, a symlink), a live one (just appended), one without a log. */
function agentshStore() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-agentsh-")));
  const old = join(root, "sess-old");
  mkdirSync(join(old, "attachments"), { recursive: true });
  writeFileSync(join(old, "llm-requests.jsonl"), '{"req":1}\n{"req":2}\n{"req":3}');
  writeFileSync(join(old, "attachments", "a.bin"), Buffer.alloc(5000, 7));
  symlinkSync("/etc/hostname", join(old, "link"));
  for (const p of [
    join(old, "attachments", "a.bin"),
    join(old, "attachments"),
    join(old, "llm-requests.jsonl"),
  ])
    touchTree(p, at(100));
  touchTree(old, at(200)); // the folder's own mtime is older than what is inside
  const live = join(root, "sess-live");
  mkdirSync(live);
  writeFileSync(join(live, "llm-requests.jsonl"), '{"req":1}\n');
  touchTree(live, at(300));
  appendFileSync(join(live, "llm-requests.jsonl"), '{"req":2}\n'); // written just now
  const empty = join(root, "sess-empty");
  mkdirSync(empty);
  writeFileSync(join(empty, "notes.txt"), "x");
  touchTree(join(empty, "notes.txt"), at(90));
  touchTree(empty, at(90));
  return { root, old, live, empty };
}

/** Workspaces: good metadata (old and new), missing, corrupt. */
function workspaceStore() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-ws-")));
  const make = (id: string, metadata: string | undefined, filesAgo: number) => {
    const dir = join(root, id);
    mkdirSync(join(dir, "out"), { recursive: true });
    writeFileSync(join(dir, "out", "result.txt"), `result of ${id}\n`);
    if (metadata !== undefined) {
      writeFileSync(join(dir, ".metadata.json"), metadata);
      touchTree(join(dir, ".metadata.json"), at(filesAgo));
    }
    for (const p of [join(dir, "out", "result.txt"), join(dir, "out"), dir]) touchTree(p, at(filesAgo));
    return dir;
  };
  const meta = (created: number, updated: number) =>
    JSON.stringify({ created_at: at(created).toISOString(), updated_at: at(updated).toISOString() });
  return {
    root,
    stale: make("stale", meta(60, 40), 1), // files touched yesterday, but no execution for 40 days
    fresh: make("fresh", meta(3, 0.5), 1),
    missing: make("missing", undefined, 400),
    corrupt: make("corrupt", "{ half", 400),
  };
}

const hashes = (dir: string): Record<string, string> =>
  Object.fromEntries(
    (readdirSync(dir, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
      .filter((e) => e.isFile())
      .map((e) => {
        const path = join(e.parentPath, e.name);
        return [path.slice(dir.length), createHash("sha256").update(readFileSync(path)).digest("hex")];
      }),
  );

describe("agentsh store", () => {
  it("measures a session by what is inside: size of regular files, newest mtime, log lines; links not followed", async () => {
    const s = agentshStore();
    const { sessions } = await scanStores({ stores: [{ kind: "agentsh", root: s.root }] });
    const old = sessions.find((r) => r.path === s.old)!;
    expect(old).toMatchObject({
      id: "agentsh:sess-old",
      store: { kind: "agentsh" },
      namespace: "agentsh",
      messageCount: 3,
    });
    expect(old.sizeBytes).toBe('{"req":1}\n{"req":2}\n{"req":3}'.length + 5000);
    expect(Date.parse(old.lastUsedAt)).toBeCloseTo(at(100).getTime(), -4); // not the folder's 200 days
    expect(old.warnings.map((w) => w.code)).toEqual(["symlink-inside"]);
    const live = sessions.find((r) => r.path === s.live)!;
    expect(Date.now() - Date.parse(live.modifiedAt)).toBeLessThan(60_000);
  });

  it("counts a log's lines to the cap, and says it stopped there", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-agentsh-")));
    mkdirSync(join(root, "sess-long"));
    writeFileSync(join(root, "sess-long", "llm-requests.jsonl"), '{"req":1}\n'.repeat(MAX_LINES + 5));
    const { sessions } = await scanStores({ stores: [{ kind: "agentsh", root }] });
    expect(sessions[0]!.messageCount).toBe(MAX_LINES);
    expect(sessions[0]!.sizeBytes).toBe(10 * (MAX_LINES + 5));
    expect(sessions[0]!.warnings).toEqual([
      {
        code: "read-capped",
        message: expect.stringMatching(
          /^llm-requests\.jsonl: reading stopped at the cap of 2,000,000 lines a file; the 2,000,000 lines \(19\.1 MiB\) read/,
        ),
      },
    ]);
  });

  it("a folder without llm-requests.jsonl, a file or a link at the top is not a session: reported, never a record", async () => {
    const s = agentshStore();
    writeFileSync(join(s.root, "stray.txt"), "12345");
    symlinkSync(s.old, join(s.root, "link-to-old"));
    const { sessions, problems } = await scanStores({
      stores: [{ kind: "agentsh", root: s.root }],
    });
    expect(sessions.map((r) => r.path).sort()).toEqual([s.live, s.old].sort());
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          code: "not-a-session",
          path: s.empty,
          message: "a folder without llm-requests.jsonl, not a session of this agentsh store",
        },
        {
          code: "not-a-session",
          path: join(s.root, "stray.txt"),
          message: "a file, not a session of this agentsh store",
          bytes: 5,
        },
        {
          code: "symlink",
          path: join(s.root, "link-to-old"),
          message: "symlink in a agentsh store; not followed",
        },
      ]),
    );
  });
});

describe("workspace store", () => {
  it("takes age from .metadata.json; without valid metadata a folder is not a session and never a candidate", async () => {
    const w = workspaceStore();
    const stores = [{ kind: "workspace" as const, root: w.root }];
    const { sessions, problems } = await scanStores({ stores });
    const byPath = new Map(sessions.map((r) => [r.path, r]));
    expect(Date.parse(byPath.get(w.stale)!.lastUsedAt)).toBeCloseTo(at(40).getTime(), -4);
    expect([...byPath.keys()].sort()).toEqual([w.fresh, w.stale].sort());
    expect(
      problems
        .filter((p) => p.code === "not-a-session")
        .map((p) => p.path)
        .sort(),
    ).toEqual([w.corrupt, w.missing].sort());

    const { evaluatePolicy } = await import("../../shared/policy.js");
    const plan = evaluatePolicy({
      sessions,
      policy: ConfigSchema.parse({
        retention: { maxAgeDays: 7, minKeepRecentCount: 0, keepLastPerNamespace: 0 },
      }),
      now: new Date(),
    });
    expect(plan.candidates.map((c) => c.path)).toEqual([w.stale]);
  });
});

describe("folder sessions: soft delete and restore as one unit", () => {
  it.each(["quarantine", "trash"] as const)("byte-identical for every file inside (%s)", async (target) => {
    const s = agentshStore();
    const before = hashes(s.old);
    const stores = [{ kind: "agentsh" as const, root: s.root }];
    const { sessions } = await scanStores({ stores });
    const old = sessions.find((r) => r.path === s.old)!;
    writeConfigFile({ retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0 }, deletion: { target } });
    const result = await softDelete(
      {
        items: [{ id: old.id, fingerprint: old.fingerprint }],
        stores,
        via: "selection",
      },
      { actor: "cli" },
    );
    expect(result.skipped).toEqual([]);
    expect(existsSync(s.old)).toBe(false);
    expect(hashes(result.moved[0]!.destination)).toEqual(before);
    const back = await restore([old.id], { actor: "cli" });
    expect(back.skipped).toEqual([]);
    expect(hashes(s.old)).toEqual(before);
  });

  it("a folder written to after the preview is skipped: changed since preview", async () => {
    const s = agentshStore();
    const stores = [{ kind: "agentsh" as const, root: s.root }];
    const { sessions } = await scanStores({ stores });
    const old = sessions.find((r) => r.path === s.old)!;
    appendFileSync(join(s.old, "llm-requests.jsonl"), '\n{"req":4}');
    touchTree(join(s.old, "llm-requests.jsonl"), at(100));
    writeConfigFile({ retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0 } });
    const result = await softDelete(
      {
        items: [{ id: old.id, fingerprint: old.fingerprint }],
        stores,
        via: "selection",
      },
      { actor: "cli" },
    );
    expect(result.skipped.map((x) => x.reason)).toEqual(["changed since preview"]);
    expect(existsSync(s.old)).toBe(true);
  });
});

describe("mixed stores in one scan, one plan, one clean", () => {
  it("pi, agentsh and workspace sessions are planned together and cleaned together; the live one stays", async () => {
    const piRoot = realpathSync(mkdtempSync(join(tmpdir(), "sr-pi-")));
    const piOld = writeSession(piRoot, "/work/app", 1).getSessionFile()!;
    const piNew = writeSession(piRoot, "/work/app", 1).getSessionFile()!;
    setModified(piOld, at(90));
    setModified(piNew, at(1));
    const a = agentshStore();
    const w = workspaceStore();
    const config = join(mkdtempSync(join(tmpdir(), "sr-cfg-")), "c.json");
    writeFileSync(
      config,
      JSON.stringify({
        retention: { maxAgeDays: 30, minKeepRecentCount: 0, keepLastPerNamespace: 0 },
        deletion: { target: "quarantine" },
      }),
    );
    const args = [
      "--root",
      piRoot,
      "--store",
      `agentsh:${a.root}`,
      "--store",
      `workspace:${w.root}`,
      "--config",
      config,
    ];
    const out: string[] = [];
    const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => out.push(t) };
    expect(await runCli(["plan", "--json", ...args], io)).toBe(0);
    const plan = PlanSchema.parse(JSON.parse(out.pop()!));
    expect(plan.candidates.map((c) => c.path).sort()).toEqual([piOld, a.old, w.stale].sort());
    expect(plan.kept.find((k) => k.path === a.live)).toMatchObject({ reason: "active" });

    expect(await runCli(["clean", "--yes", ...args], io)).toBe(0);
    for (const gone of [piOld, a.old, w.stale]) expect(existsSync(gone)).toBe(false);
    // Folders that are not sessions of their store stay, whatever the policy.
    for (const kept of [piNew, a.live, a.empty, w.fresh, w.missing, w.corrupt])
      expect(existsSync(kept)).toBe(true);
  });
});

describe("the stores found on the machine", () => {
  it("without flags or config: pi's store plus agentsh's ~/.agentsh/sessions when it exists", async () => {
    const home = process.env.HOME!;
    const piRoot = join(process.env.PI_CODING_AGENT_DIR!, "sessions");
    writeSession(piRoot, "/work/app", 1);
    const agentsh = join(home, ".agentsh", "sessions", "sess-1");
    mkdirSync(agentsh, { recursive: true });
    writeFileSync(join(agentsh, "llm-requests.jsonl"), "{}\n");
    const out: string[] = [];
    expect(await runCli(["scan", "--json"], { stdout: (t) => out.push(t), stderr: () => {} })).toBe(0);
    const report = JSON.parse(out.join("\n")) as { stores: { kind: string; root: string }[] };
    expect(report.stores.map((s) => s.kind)).toEqual(["pi", "agentsh"]);
    expect(report.stores[1]!.root).toBe(realpathSync(join(home, ".agentsh", "sessions")));
  });
});
