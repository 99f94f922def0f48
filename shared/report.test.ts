import { describe, expect, it } from "vitest";
import type { AuditEntry } from "./audit.js";
import { ConfigSchema } from "./config.js";
import { evaluatePolicy, type PolicySession } from "./policy.js";
import { cleanupReport, cleanupReportMarkdown, planReportMarkdown } from "./report.js";

const NOW = new Date("2026-06-01T12:00:00.000Z");
const session = (id: string, ns: string, daysAgo: number, sizeBytes: number): PolicySession => {
  const at = new Date(NOW.getTime() - daysAgo * 86_400_000).toISOString();
  return {
    id,
    path: `/s/${id}.jsonl`,
    store: { kind: "pi", root: "/s" },
    namespace: ns,
    sizeBytes,
    createdAt: at,
    modifiedAt: at,
    lastUsedAt: at,
    messageCounts: { user: 1, assistant: 1, toolResult: 0, other: 0 },
  };
};

describe("planReportMarkdown", () => {
  it("states the policy, totals, per-namespace table and every session with its rule or reason", () => {
    const plan = evaluatePolicy({
      sessions: [
        { ...session("old", "/a", 200, 2048), firstMessage: "why is the build red?" },
        session("mid|pipe", "/a", 50, 1024),
        session("new", "/b", 1, 512),
      ],
      policy: ConfigSchema.parse({
        quota: { maxTotalSizeBytes: 10_000, maxSessionCount: null },
        retention: { maxAgeDays: 180, minKeepRecentCount: 1, keepLastPerNamespace: 0 },
        protection: { protectedPatterns: ["*keep*"] },
      }),
      now: NOW,
    });
    expect(planReportMarkdown(plan).split("\n")).toEqual([
      "# Cleanup plan — 2026-06-01 12:00 UTC",
      "",
      "Nothing has been deleted: this is what the policy would do.",
      "",
      "## Policy",
      "",
      "- mode: warn-only; eviction: lru",
      "- quota: 9.77 KiB, no count limit (info 0.7, warn 0.9)",
      "- retention: max age 180 days, keep 1 most recent, keep 0 per namespace",
      "- protected patterns: `*keep*`",
      "",
      "## Totals",
      "",
      "|  | sessions | size | quota | level |",
      "| --- | --- | --- | --- | --- |",
      "| before | 3 | 3.50 KiB | 3.50 KiB of 9.77 KiB (36%) | ok |",
      "| after | 2 | 1.50 KiB | 1.50 KiB of 9.77 KiB (15%) | ok |",
      "",
      "Bytes to free: 2.00 KiB (2048 bytes) in 1 sessions.",
      "",
      "## Per namespace",
      "",
      "| namespace | sessions | size | to remove | to free |",
      "| --- | --- | --- | --- | --- |",
      "| /a | 2 | 3.00 KiB | 1 | 2.00 KiB |",
      "| /b | 1 | 512 B | 0 | 0 B |",
      "",
      "## Would be removed",
      "",
      "| session | title | size | last used | rule | why |",
      "| --- | --- | --- | --- | --- | --- |",
      "| /s/old.jsonl | why is the build red? | 2.00 KiB | 2025-11-13 | maxAgeDays | last used 200 days ago (limit 180 days) |",
      "",
      "## Kept",
      "",
      "| session | size | last used | reason | why |",
      "| --- | --- | --- | --- | --- |",
      "| /s/new.jsonl | 512 B | 2026-05-31 | recent | among the 1 most recently used |",
      "| /s/mid\\|pipe.jsonl | 1.00 KiB | 2026-04-12 | within-policy | no rule applies |",
      "",
    ]);
  });
  it("has a per-agent section when several agents are in it: each agent's share, its quota before and after, and the agents' own cleanups", () => {
    const claude = (id: string, daysAgo: number, sizeBytes: number): PolicySession => ({
      ...session(id, "/c", daysAgo, sizeBytes),
      path: `/h/.claude/projects/-c/${id}.jsonl`,
      store: { kind: "claude", root: "/h/.claude" },
    });
    const plan = evaluatePolicy({
      sessions: [
        session("pi1", "/a", 1, 512),
        claude("c1", 90, 4096),
        claude("c2", 60, 2048),
        claude("c3", 2, 1024),
      ],
      policy: ConfigSchema.parse({
        quota: { agents: { claude: { maxSessionCount: 2 } } },
        retention: { maxAgeDays: null, minKeepRecentCount: 0, keepLastPerNamespace: 0 },
      }),
      now: NOW,
    });
    const sweep = {
      agent: "claude" as const,
      storeRoot: "/h/.claude",
      setting: "cleanupPeriodDays = 30 (Claude Code's default)",
      days: 30,
      ids: ["claude:c1", "claude:c2"],
      bytes: 6144,
      keptByYou: 1,
      keepable: true,
      message: "Claude Code will permanently delete 2 sessions (6.00 KiB) the next time it runs.",
    };
    const md = planReportMarkdown({ ...plan, externalSweeps: [sweep] });
    const section = md.slice(md.indexOf("## Per agent"), md.indexOf("## Would be removed")).split("\n");
    expect(section).toEqual([
      "## Per agent",
      "",
      "| agent | sessions | size | to remove | to free | quota before | quota after |",
      "| --- | --- | --- | --- | --- | --- | --- |",
      "| Claude Code | 3 | 7.00 KiB | 2 | 6.00 KiB | 3 of 2 sessions (150%) → critical | 1 of 2 sessions (50%) → ok |",
      "| pi | 1 | 512 B | 0 | 0 B | none | none |",
      "",
      "### The agents' own cleanups",
      "",
      "They delete for good, with no trash, whatever this plan says:",
      "",
      "- Claude Code will permanently delete 2 sessions (6.00 KiB) the next time it runs — 1 of them pinned or protected by you.",
      "",
      "",
    ]);
  });
});

describe("cleanupReport", () => {
  const entry = (
    time: string,
    action: AuditEntry["action"],
    items: AuditEntry["items"],
    mode = "quarantine",
  ): AuditEntry => ({
    time,
    actor: "cli",
    action,
    mode,
    items,
    result: "ok",
  });
  const audit = [
    entry("2026-05-01T00:00:00.000Z", "soft-delete", [{ id: "x", path: "/s/x", bytes: 10, result: "moved" }]),
    entry("2026-05-20T00:00:00.000Z", "soft-delete", [
      { id: "a", path: "/s/a", title: "release notes", bytes: 1000, destination: "/q/1-a", result: "moved" },
      { id: "b", path: "/s/b", result: "skipped", reason: "changed since preview" },
    ]),
    entry(
      "2026-05-21T00:00:00.000Z",
      "soft-delete",
      [{ id: "c", path: "/s/c", bytes: 5, result: "would-move" }],
      "dry-run",
    ),
    entry("2026-05-22T00:00:00.000Z", "restore", [
      { id: "a", path: "/s/a", bytes: 1000, result: "restored" },
    ]),
    entry("2026-05-23T00:00:00.000Z", "protect", [{ id: "d", path: "/s/d", result: "protected" }]),
  ];

  it("counts what moved, was skipped, restored and purged since the date; dry runs and protection are not cleanups", () => {
    const report = cleanupReport(audit, new Date("2026-05-15T00:00:00Z"), NOW);
    expect(report.operations.map((o) => o.action)).toEqual(["soft-delete", "restore"]);
    expect(report.totals).toEqual({ moved: 1, bytesFreed: 1000, skipped: 1, restored: 1, purged: 0 });
    const md = cleanupReportMarkdown(report).split("\n");
    expect(md[0]).toBe("# Cleanups since 2026-05-15");
    expect(md).toContain(
      "Moved to the trash (still on disk until emptied): 1 sessions, 1000 B (1000 bytes). Skipped: 1. Restored: 1. Purged: 0.",
    );
    // An item recorded before titles were has none: its path says it.
    expect(md).toContain("| /s/b |  | skipped |  |  | changed since preview |");
    expect(md).toContain("| /s/a | release notes | moved | 1000 B | /q/1-a |  |");
  });
});
