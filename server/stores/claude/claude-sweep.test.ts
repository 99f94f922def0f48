// Claude Code's own cleanup (cleanupPeriodDays) as a policy we show: what it will delete next, from
// which setting, how `keep` keeps those sessions, and the warning a restore gives when Claude would
// delete the restored session again.
import { mkdirSync, mkdtempSync, realpathSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeSweep, PlanSchema, withKeptByYou } from "../../../shared/plan.js";
import { writeConfigFile } from "../../../test-support/config-file.js";
import { runCli } from "../../cli/main.js";
import { restore, softDelete } from "../../delete/deletion-engine.js";
import { scanStores } from "../../scan/scanner.js";
import { readAudit } from "../../state/audit-log.js";
import { statePaths } from "../../state/state-dir.js";
import { claudeCleanupPeriod, claudeSweep } from "./claude-sweep.js";

const DAY = 86_400_000;
let counter = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, "0")}`;

/** A Claude folder with one transcript per age (in days), each in the project of `cwd`. */
function claudeStore(ages: number[], cwd = "/work/app") {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-claude-sweep-")));
  const folder = join(root, "projects", cwd.replace(/[^a-zA-Z0-9]/g, "-"));
  mkdirSync(folder, { recursive: true });
  const paths = ages.map((days) => {
    const id = uuid();
    const path = join(folder, `${id}.jsonl`);
    const at = new Date(Date.now() - days * DAY);
    writeFileSync(
      path,
      `${JSON.stringify({ type: "user", cwd, sessionId: id, timestamp: at.toISOString(), message: { role: "user", content: "hi" } })}\n`,
    );
    utimesSync(path, at, at);
    return path;
  });
  return { root, paths };
}

const out = () => {
  const lines: string[] = [];
  return { lines, io: { stdout: (t: string) => lines.push(t), stderr: (t: string) => lines.push(t) } };
};

describe("claudeCleanupPeriod", () => {
  it("is Claude's default 30 days without settings, the user's setting, or a shorter one of a project Claude runs in", () => {
    const { root } = claudeStore([]);
    expect(claudeCleanupPeriod(root)).toEqual({
      days: 30,
      setting: "cleanupPeriodDays = 30 (Claude Code's default)",
    });
    writeFileSync(join(root, "settings.json"), JSON.stringify({ cleanupPeriodDays: 10 }));
    expect(claudeCleanupPeriod(root).days).toBe(10);
    const project = realpathSync(mkdtempSync(join(tmpdir(), "sr-project-")));
    mkdirSync(join(project, ".claude"));
    writeFileSync(join(project, ".claude", "settings.local.json"), JSON.stringify({ cleanupPeriodDays: 3 }));
    expect(claudeCleanupPeriod(root, [project])).toEqual({
      days: 3,
      setting: `cleanupPeriodDays = 3 (${project}/.claude/settings.local.json, used for every project when Claude runs there)`,
    });
    writeFileSync(join(root, "settings.json"), JSON.stringify({ cleanupPeriodDays: 0 })); // rejected by Claude
    expect(claudeCleanupPeriod(root).days).toBe(30);
  });
});

describe("claudeSweep", () => {
  it("lists the transcripts older than the period, oldest first, and how many of them we keep", async () => {
    const { root, paths } = claudeStore([5, 45, 90]);
    const { sessions } = await scanStores({ stores: [{ kind: "claude", root }] });
    const byPath = new Map(sessions.map((s) => [s.path, s]));
    const sweep = withKeptByYou(
      claudeSweep(root, sessions, new Date())!,
      new Set([byPath.get(paths[1]!)!.id]),
    );
    expect(sweep.ids).toEqual([byPath.get(paths[2]!)!.id, byPath.get(paths[1]!)!.id]);
    expect(sweep.keptByYou).toBe(1);
    expect(describeSweep(sweep)).toMatch(
      /^Claude Code will permanently delete 2 sessions \(.+\) the next time it runs: cleanupPeriodDays = 30 \(Claude Code's default\), by file time, with no trash — 1 of them pinned or protected by you\.$/,
    );
    expect(
      claudeSweep(
        root,
        sessions.filter((s) => s.path === paths[0]),
        new Date(),
      ),
    ).toBeUndefined();
  });

  it("judges a transcript by its own time: a subagent writing beside an old transcript does not save it", async () => {
    const { root, paths } = claudeStore([45]);
    const subagents = join(paths[0]!.slice(0, -".jsonl".length), "subagents");
    mkdirSync(subagents, { recursive: true });
    writeFileSync(join(subagents, "agent-a1.jsonl"), "{}\n"); // written now
    const { sessions } = await scanStores({ stores: [{ kind: "claude", root }] });
    const [session] = sessions;
    expect(Date.now() - Date.parse(session!.modifiedAt)).toBeLessThan(DAY); // the session changed today
    expect(claudeSweep(root, sessions, new Date())?.ids).toEqual([session!.id]);
  });
});

describe("keep, plan and status", () => {
  it("plan and status say what Claude will delete; keep --swept refreshes their time, audited, and then nothing is due", async () => {
    const { root, paths } = claudeStore([3, 40, 60]);
    const store = ["--store", `claude:${root}`];
    writeConfigFile({});
    let o = out();
    await runCli(["status", ...store], o.io);
    expect(o.lines.join("\n")).toContain("Claude Code will delete 2 sessions");
    o = out();
    expect(await runCli(["plan", "--json", ...store], o.io)).toBe(0);
    expect(PlanSchema.parse(JSON.parse(o.lines.at(-1)!)).externalSweeps?.[0]?.ids).toHaveLength(2);

    const before = paths.map((p) => statSync(p).mtimeMs);
    o = out();
    expect(await runCli(["keep", "--swept", ...store], o.io)).toBe(0);
    expect(o.lines.join("\n")).toContain("Kept 2 sessions");
    const after = paths.map((p) => statSync(p).mtimeMs);
    expect(after[0]).toBe(before[0]); // not due: untouched
    expect(Date.now() - after[1]!).toBeLessThan(60_000);
    expect(Date.now() - after[2]!).toBeLessThan(60_000);
    expect(readAudit(statePaths().auditLog).entries[0]).toMatchObject({
      action: "keep",
      actor: "cli",
      items: [{ result: "kept" }, { result: "kept" }],
    });
    o = out();
    await runCli(["plan", "--json", ...store], o.io);
    expect(PlanSchema.parse(JSON.parse(o.lines.at(-1)!)).externalSweeps).toBeUndefined();
    // Our own view of when they were used comes from inside: not changed by the refreshed time.
    const { sessions } = await scanStores({ stores: [{ kind: "claude", root }] });
    expect(Date.now() - Date.parse(sessions.find((s) => s.path === paths[2])!.lastUsedAt)).toBeGreaterThan(
      59 * DAY,
    );
  });

  it("keep --json prints what was kept, with the time each had, as one document", async () => {
    const { root, paths } = claudeStore([3, 40]);
    writeConfigFile({});
    const o = out();
    expect(await runCli(["keep", "--swept", "--json", "--store", `claude:${root}`], o.io)).toBe(0);
    expect(o.lines).toHaveLength(1);
    const document = JSON.parse(o.lines[0]!) as {
      kept: Array<{ path: string; before: string }>;
      bytes: number;
    };
    expect(document.kept.map((k) => k.path)).toEqual([paths[1]]);
    expect(Date.now() - Date.parse(document.kept[0]!.before)).toBeGreaterThan(39 * DAY);
    expect(document.bytes).toBe(statSync(paths[1]!).size);
    const none = out();
    expect(await runCli(["keep", "--swept", "--json", "--store", `claude:${root}`], none.io)).toBe(0);
    expect(JSON.parse(none.lines[0]!)).toEqual({ kept: [], bytes: 0 });
  });

  it("a restored session Claude would delete again is named, with how to keep it", async () => {
    const { root, paths } = claudeStore([50, 1]);
    writeConfigFile({
      retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0 },
      deletion: { target: "quarantine" },
    });
    const { sessions } = await scanStores({ stores: [{ kind: "claude", root }] });
    const old = sessions.find((s) => s.path === paths[0])!;
    const moved = await softDelete(
      {
        items: [{ id: old.id, fingerprint: old.fingerprint }],
        stores: [{ kind: "claude", root }],
        via: "selection",
      },
      { actor: "cli" },
    );
    expect(moved.skipped).toEqual([]);
    expect(moved.moved).toHaveLength(1);
    const back = await restore([old.id], { actor: "cli" });
    expect(back.done).toHaveLength(1);
    expect(back.sweptAgain).toEqual([
      {
        id: old.id,
        path: old.path,
        message: expect.stringContaining(`keep it with \`session-retention keep ${old.id}\``),
        agent: "claude",
        keepable: true,
      },
    ]);
  });
});
