import { describe, expect, it } from "vitest";
import { ConfigSchema, type ConfigInput, type Policy } from "./config.js";
import { PlanSchema } from "./plan.js";
import { evaluatePolicy, type PolicySession } from "./policy.js";

const NOW = new Date("2026-06-01T12:00:00.000Z");
const DAY = 24 * 3600 * 1000;
const MB = 1024 * 1024;

const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

/** A session last used `daysAgo` days ago; created a day before unless said otherwise. */
function session(
  id: string,
  daysAgo: number,
  sizeBytes = MB,
  extra: Partial<PolicySession> & { createdDaysAgo?: number; userMessages?: number } = {},
): PolicySession {
  const { createdDaysAgo, userMessages, ...rest } = extra;
  const namespace = rest.namespace ?? "/work/app";
  return {
    id,
    path: `/store/${namespace.replaceAll("/", "-")}/${id}.jsonl`,
    store: { kind: "pi", root: "/store" },
    namespace,
    sizeBytes,
    createdAt: ago((createdDaysAgo ?? daysAgo + 1) * DAY),
    modifiedAt: ago(daysAgo * DAY),
    lastUsedAt: ago(daysAgo * DAY),
    messageCounts: { user: userMessages ?? 3, assistant: 3, toolResult: 0, other: 0 },
    ...rest,
  };
}

/** A policy with nothing on unless the test turns it on. */
function policy(overrides: ConfigInput = {}): Policy {
  return ConfigSchema.parse({
    ...overrides,
    quota: { maxTotalSizeBytes: null, maxSessionCount: null, ...overrides.quota },
    retention: { maxAgeDays: null, minKeepRecentCount: 0, keepLastPerNamespace: 0, ...overrides.retention },
  });
}

function plan(sessions: PolicySession[], overrides: ConfigInput = {}, extra = {}) {
  const result = evaluatePolicy({ sessions, policy: policy(overrides), now: NOW, ...extra });
  PlanSchema.parse(result); // every plan is valid against its schema
  return result;
}

const ids = (list: readonly { id: string }[]) => list.map((s) => s.id);
const reasonOf = (result: ReturnType<typeof plan>, id: string) => result.kept.find((k) => k.id === id);

describe("rules", () => {
  it("maxAgeDays: sessions not used for longer are candidates, with the age in the detail", () => {
    const result = plan([session("old", 200), session("young", 10)], { retention: { maxAgeDays: 180 } });
    expect(result.candidates).toMatchObject([
      { id: "old", rule: "maxAgeDays", detail: "last used 200 days ago (limit 180 days)" },
    ]);
    expect(reasonOf(result, "young")).toMatchObject({ reason: "within-policy" });
  });

  it("maxAgeDays is measured on last used, not created", () => {
    const result = plan([session("reopened", 5, MB, { createdDaysAgo: 400 })], {
      retention: { maxAgeDays: 180 },
    });
    expect(result.candidates).toEqual([]);
  });

  it("neverReopened: old, few user messages, not used after its first hour", () => {
    const created = 40;
    const brief = { createdDaysAgo: created, userMessages: 1 };
    const sessions = [
      session("abandoned", created - 0.01, MB, brief), // last used 14 min after creation
      session("came-back", created - 2, MB, brief), // used two days later
      session("long-chat", created - 0.01, MB, { ...brief, userMessages: 9 }),
      session("too-new", 2 - 0.01, MB, { createdDaysAgo: 2, userMessages: 1 }),
    ];
    const result = plan(sessions, {
      retention: { neverReopened: { olderThanDays: 30, maxUserMessages: 1, activeMinutes: 60 } },
    });
    expect(result.candidates).toMatchObject([{ id: "abandoned", rule: "neverReopened" }]);
    expect(result.candidates[0]!.detail).toBe(
      "created 40 days ago, 1 user message, not used after its first 60 min",
    );
  });

  it("maxTotalSizeBytes: evicts least recently used first until below the limit", () => {
    const sessions = [
      session("a", 50, 4 * MB),
      session("b", 40, 4 * MB),
      session("c", 30, 4 * MB),
      session("d", 20, 4 * MB),
    ];
    const result = plan(sessions, { quota: { maxTotalSizeBytes: 10 * MB } });
    expect(ids(result.candidates)).toEqual(["a", "b"]);
    expect(result.candidates.every((c) => c.rule === "maxTotalSizeBytes")).toBe(true);
    expect(result.after).toEqual({ sessionCount: 2, totalBytes: 8 * MB });
    expect(result.bytesToFree).toBe(8 * MB);
  });

  it("at exactly the limit is critical, so one more goes", () => {
    const sessions = [session("a", 50, 5 * MB), session("b", 40, 5 * MB), session("c", 30, 5 * MB)];
    const result = plan(sessions, { quota: { maxTotalSizeBytes: 10 * MB } });
    expect(ids(result.candidates)).toEqual(["a", "b"]);
    expect(result.quotaAfter.size).toMatchObject({ ratio: 0.5, level: "ok" });
  });

  it.each([
    ["lru", ["old-small", "mid-big"]],
    ["largest-first", ["new-huge"]],
    ["oldest-created", ["mid-big", "old-small"]],
  ] as const)("eviction order %s", (eviction, expected) => {
    const sessions = [
      session("old-small", 90, 2 * MB, { createdDaysAgo: 100 }),
      session("mid-big", 60, 5 * MB, { createdDaysAgo: 300 }),
      session("new-huge", 5, 9 * MB, { createdDaysAgo: 6 }),
      session("newest", 1, 1 * MB, { createdDaysAgo: 2 }),
    ];
    const result = plan(sessions, { quota: { maxTotalSizeBytes: 11 * MB }, retention: { eviction } });
    expect(ids(result.candidates)).toEqual(expected);
  });

  it("maxSessionCount: evicts in order until below the count", () => {
    const sessions = [1, 2, 3, 4, 5].map((d) => session(`s${d}`, d * 10));
    const result = plan(sessions, { quota: { maxSessionCount: 3 } });
    expect(ids(result.candidates)).toEqual(["s5", "s4", "s3"]);
    expect(result.candidates[0]).toMatchObject({
      rule: "maxSessionCount",
      detail: "the count must stay below 3 sessions",
    });
  });

  it("applies the age rule first, then size, then count — each over what is left", () => {
    const sessions = [
      session("ancient", 400, 1 * MB),
      session("big", 100, 8 * MB),
      session("x", 50, 1 * MB),
      session("y", 40, 1 * MB),
      session("z", 30, 1 * MB),
    ];
    const result = plan(sessions, {
      quota: { maxTotalSizeBytes: 10 * MB, maxSessionCount: 3 },
      retention: { maxAgeDays: 365 },
    });
    expect(result.candidates.map((c) => [c.id, c.rule])).toEqual([
      ["ancient", "maxAgeDays"],
      ["big", "maxTotalSizeBytes"], // 11 MiB left after the age rule → big goes → 3 MiB
      ["x", "maxSessionCount"], // 3 sessions left, the limit is below 3
    ]);
  });

  it("namespace quotas: each matching namespace gets the limit of its own; the first matching pattern wins", () => {
    const sessions = [
      session("w1", 30, 3 * MB, { namespace: "/work/a" }),
      session("w2", 20, 3 * MB, { namespace: "/work/a" }),
      session("w3", 10, 3 * MB, { namespace: "/work/a" }),
      session("v1", 30, 3 * MB, { namespace: "/work/b" }),
      session("v2", 20, 3 * MB, { namespace: "/work/b" }),
      session("p1", 30, 3 * MB, { namespace: "/play" }),
      session("p2", 20, 3 * MB, { namespace: "/play" }),
    ];
    const result = plan(sessions, {
      quota: {
        namespaces: [
          { pattern: "/work/b", maxSessionCount: 5 },
          { pattern: "/work/*", maxTotalSizeBytes: 7 * MB },
        ],
      },
    });
    expect(result.candidates.map((c) => [c.id, c.rule])).toEqual([["w1", "namespaceQuota"]]);
    expect(result.candidates[0]!.detail).toBe('/work/a must stay below 7.00 MiB (pattern "/work/*")');
    expect(
      result.namespaceQuotas.map((n) => [n.namespace, n.pattern, n.before.level, n.after.level]),
    ).toEqual([
      ["/work/a", "/work/*", "critical", "info"],
      ["/work/b", "/work/b", "ok", "ok"],
    ]);
  });

  it("agent quotas: each agent's sessions together get its limit; other agents' sessions are not touched", () => {
    const claude = { store: { kind: "claude" as const, root: "/home/u/.claude" } };
    const sessions = [
      session("c1", 30, 4 * MB, claude),
      session("c2", 20, 4 * MB, claude),
      session("c3", 10, 4 * MB, claude),
      session("p1", 90, 40 * MB),
    ];
    const result = plan(sessions, { quota: { agents: { claude: { maxTotalSizeBytes: 9 * MB } } } });
    expect(result.candidates.map((c) => [c.id, c.rule, c.detail])).toEqual([
      ["c1", "agentQuota", "the claude sessions must stay below 9.00 MiB"],
    ]);
    expect(result.agentQuotas.map((a) => [a.agent, a.before.level, a.after.level])).toEqual([
      ["claude", "critical", "info"], // 8 MiB of 9
    ]);
    // Only what the limit needs: without it nothing goes; a count limit counts the agent's own.
    expect(plan(sessions).candidates).toEqual([]);
    expect(ids(plan(sessions, { quota: { agents: { claude: { maxSessionCount: 2 } } } }).candidates)).toEqual(
      ["c1", "c2"],
    );
  });

  it("an agent quota that exempt sessions keep from being met is a warning, not a removal", () => {
    const claude = { store: { kind: "claude" as const, root: "/c" } };
    const result = plan(
      [session("c1", 30, 4 * MB, claude)],
      { quota: { agents: { claude: { maxSessionCount: 1 } } } },
      {
        pinnedIds: new Set(["c1"]),
      },
    );
    expect(result.candidates).toEqual([]);
    expect(result.warnings).toEqual([
      {
        code: "agent-quota-unreachable",
        message:
          "quota of the claude sessions cannot be met: sessions that must be kept alone use 4.00 MiB in 1 session (pinned 1); it must stay below 1 sessions",
      },
    ]);
  });
});

describe("never a candidate", () => {
  const old = { retention: { maxAgeDays: 30 } };

  it("the active session, whatever the policy says (acceptance criterion 6)", () => {
    const result = plan([session("live", 300), session("other", 300)], old, {
      activeIds: new Map([["live", "pi process 4242 (marker)"]]),
    });
    expect(ids(result.candidates)).toEqual(["other"]);
    expect(reasonOf(result, "live")).toMatchObject({ reason: "active", detail: "pi process 4242 (marker)" });
  });

  it("a session written within the grace window counts as active", () => {
    const writing = session("writing", 300, MB, { modifiedAt: ago(4 * 60 * 1000) });
    const result = plan([writing], { ...old, activity: { graceMinutes: 10 } });
    expect(result.candidates).toEqual([]);
    expect(reasonOf(result, "writing")).toMatchObject({
      reason: "active",
      detail: "modified 4 min ago (grace 10 min)",
    });
  });

  it("a session modified in the future (clock skew) counts as active", () => {
    const skewed = session("skewed", 300, MB, { modifiedAt: new Date(NOW.getTime() + DAY).toISOString() });
    expect(reasonOf(plan([skewed], old), "skewed")?.reason).toBe("active");
  });

  it("a pinned session", () => {
    const result = plan([session("pinned", 300)], old, { pinnedIds: new Set(["pinned"]) });
    expect(reasonOf(result, "pinned")).toMatchObject({ reason: "pinned", detail: "pinned by you" });
  });

  it.each([
    ["path", "*/-work-app/*", {}],
    ["file name", "keep-*.jsonl", { id: "keep-me" }],
    ["namespace", "/work/*", {}],
    ["name", "*incident*", { name: "prod incident 42" }],
  ] as const)("a session protected by a pattern on its %s", (field, pattern, extra) => {
    const s = {
      ...session("id" in extra ? extra.id : "s", 300),
      ...("name" in extra ? { name: extra.name } : {}),
    };
    const result = plan([s], { ...old, protection: { protectedPatterns: ["*nothing*", pattern] } });
    expect(result.candidates).toEqual([]);
    expect(result.kept[0]).toMatchObject({
      reason: "protected",
      detail: `protected by pattern "${pattern}" (${field})`,
    });
  });

  it("the minKeepRecentCount most recently used, even when over quota", () => {
    const sessions = [session("a", 300, 5 * MB), session("b", 200, 5 * MB), session("c", 100, 5 * MB)];
    const result = plan(sessions, {
      quota: { maxTotalSizeBytes: 6 * MB },
      retention: { minKeepRecentCount: 2 },
    });
    expect(ids(result.candidates)).toEqual(["a"]);
    expect(reasonOf(result, "c")).toMatchObject({
      reason: "recent",
      detail: "among the 2 most recently used",
    });
    expect(result.warnings).toEqual([
      {
        code: "quota-unreachable",
        message:
          "quota cannot be met: sessions that must be kept alone use 10.0 MiB in 2 sessions (recent 2); the store must stay below 6.00 MiB",
      },
    ]);
    expect(result.quotaAfter.level).toBe("critical");
  });

  it("the last session of each namespace (keepLastPerNamespace), unless set to 0", () => {
    const sessions = [
      session("a-old", 300, MB, { namespace: "/a" }),
      session("a-new", 250, MB, { namespace: "/a" }),
      session("b-only", 400, MB, { namespace: "/b" }),
    ];
    const keepOne = plan(sessions, {
      retention: { maxAgeDays: 30, keepLastPerNamespace: 1, allowEmptyStore: true },
    });
    expect(ids(keepOne.candidates)).toEqual(["a-old"]);
    expect(reasonOf(keepOne, "b-only")).toMatchObject({
      reason: "last-in-namespace",
      detail: "the most recently used of /b",
    });
    const keepNone = plan(sessions, {
      retention: { maxAgeDays: 30, keepLastPerNamespace: 0, allowEmptyStore: true },
    });
    expect(keepNone.candidates).toHaveLength(3);
  });

  it("the strongest reason is the one shown", () => {
    const result = plan(
      [session("s", 1)],
      { retention: { minKeepRecentCount: 5, keepLastPerNamespace: 1 } },
      {
        activeIds: new Map([["s", "open in process 7"]]),
        pinnedIds: new Set(["s"]),
      },
    );
    expect(result.kept[0]?.reason).toBe("active");
  });
});

describe("the plan", () => {
  it("lists every session exactly once, kept most recent first", () => {
    const sessions = [session("a", 300), session("b", 1), session("c", 50), session("d", 400)];
    const result = plan(sessions, { retention: { maxAgeDays: 100, minKeepRecentCount: 1 } });
    expect(ids(result.candidates)).toEqual(["d", "a"]);
    expect(ids(result.kept)).toEqual(["b", "c"]);
  });

  it("breaks ties by last used, then size, then path — whatever the input order", () => {
    const same = (id: string, size: number) => session(id, 100, size);
    const sessions = [same("b", MB), same("a", MB), same("c", 2 * MB)];
    const forward = plan(sessions, { quota: { maxSessionCount: 2 } });
    const backward = plan([...sessions].reverse(), { quota: { maxSessionCount: 2 } });
    expect(ids(forward.candidates)).toEqual(["c", "a"]); // larger first, then by path
    expect(backward).toEqual(forward);
  });

  it("quota levels before and after at 70/90/100% (acceptance criterion 4)", () => {
    const at = (mb: number) =>
      plan([session("s", 1, mb * MB)], { quota: { maxTotalSizeBytes: 100 * MB } }).quotaBefore.level;
    expect([at(69), at(70), at(89), at(90), at(99), at(100), at(120)]).toEqual([
      "ok",
      "info",
      "info",
      "warn",
      "warn",
      "critical",
      "critical",
    ]);
  });

  it("count is the secondary measure: the higher level wins", () => {
    const sessions = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((d) => session(`s${d}`, d, MB));
    const result = plan(sessions, { quota: { maxTotalSizeBytes: 1000 * MB, maxSessionCount: 10 } });
    expect(result.quotaBefore.size?.level).toBe("ok");
    expect(result.quotaBefore.count?.level).toBe("warn");
    expect(result.quotaBefore.level).toBe("warn");
  });

  it("carries the mode for the UI and the extension", () => {
    expect(plan([], {}, { mode: "hard-block" }).mode).toBe("hard-block");
  });

  it("names the riskiest: the largest and the most recently used candidates lead", () => {
    const sessions = [
      session("huge-old", 300, 50 * MB),
      session("tiny-recent", 100, 1 * MB),
      ...[1, 2, 3, 4, 5].map((i) => session(`mid${i}`, 200 + i, 5 * MB)),
    ];
    const result = plan(sessions, { retention: { maxAgeDays: 90 } });
    expect(result.candidates).toHaveLength(7);
    expect(ids(result.riskiest).slice(0, 2).sort()).toEqual(["huge-old", "tiny-recent"]);
    expect(result.riskiest).toHaveLength(5);
  });

  it("refuses a plan that would remove every session of a store", () => {
    const result = plan([session("a", 300), session("b", 300)], { retention: { maxAgeDays: 30 } });
    expect(result.candidates).toHaveLength(2);
    expect(result.refusal).toMatchObject({ code: "empties-store" });
    expect(result.refusal?.message).toContain("/store");
  });

  it("allows it when allowEmptyStore is set, and is not refused while something stays", () => {
    const allowed = plan([session("a", 300)], { retention: { maxAgeDays: 30, allowEmptyStore: true } });
    expect(allowed.refusal).toBeUndefined();
    const partial = plan([session("a", 300), session("b", 3)], { retention: { maxAgeDays: 30 } });
    expect(partial.refusal).toBeUndefined();
  });

  it("an empty store gives an empty plan", () => {
    const result = plan([], { quota: { maxTotalSizeBytes: MB } });
    expect(result).toMatchObject({ candidates: [], kept: [], bytesToFree: 0, warnings: [] });
    expect(result.refusal).toBeUndefined();
  });
});

describe("a hand selection", () => {
  it("replaces the rules: only the selected open sessions are candidates, exemptions still hold", () => {
    const sessions = [session("old", 400), session("a", 5), session("b", 6), session("pinned", 7)];
    const result = plan(
      sessions,
      { retention: { maxAgeDays: 180 }, quota: { maxSessionCount: 2 } },
      { selection: new Set(["a", "pinned", "nowhere"]), pinnedIds: new Set(["pinned"]) },
    );
    // "old" is past maxAgeDays and the count is over quota, but nobody selected it.
    expect(result.candidates).toMatchObject([{ id: "a", rule: "selected" }]);
    expect(reasonOf(result, "pinned")).toMatchObject({ reason: "pinned" });
    expect(result.after).toEqual({ sessionCount: 3, totalBytes: 3 * MB });
    expect(result.quotaAfter.count).toMatchObject({ used: 3, limit: 2, level: "critical" });
    expect(result.warnings).toEqual([]);
  });

  it("that would empty a store is refused like a plan", () => {
    const result = plan([session("a", 5), session("b", 6)], {}, { selection: new Set(["a", "b"]) });
    expect(result.refusal?.code).toBe("empties-store");
  });

  it("names the stores it would empty in the same order, whatever the order of the sessions", () => {
    const inStore = (id: string, root: string) => ({
      ...session(id, 5),
      store: { kind: "pi" as const, root },
    });
    const sessions = [inStore("a", "/s3"), inStore("b", "/s1")];
    const selection = { selection: new Set(["a", "b"]) };
    const message = plan(sessions, {}, selection).refusal?.message;
    expect(message).toMatch(/every session of \/s1, \/s3;/);
    expect(plan([...sessions].reverse(), {}, selection).refusal?.message).toBe(message);
  });
});

describe("a Codex family chosen as one", () => {
  const codex = { kind: "codex" as const, root: "/codex" };
  // root ← fork ← fork2: each fork reads its history from the one before it.
  const family = () => [
    session("root", 30, MB, { store: codex, neededBy: ["fork"] }),
    session("fork", 20, MB, { store: codex, neededBy: ["fork2"] }),
    session("fork2", 10, MB, { store: codex }),
  ];

  it("a session its forks read from is kept alone, and goes when every fork is chosen with it", () => {
    expect(reasonOf(plan(family(), {}, { selection: new Set(["root"]) }), "root")).toMatchObject({
      reason: "fork-parent",
    });
    const whole = plan(family(), {}, { selection: new Set(["root", "fork", "fork2"]) });
    expect(ids(whole.candidates).sort()).toEqual(["fork", "fork2", "root"]);
    // Without a selection (the rules), it is kept whatever the rules say.
    expect(reasonOf(plan(family(), { retention: { maxAgeDays: 5 } }), "root")).toMatchObject({
      reason: "fork-parent",
    });
  });

  it("when a fork down the chain stays (live), everything it reads from stays too", () => {
    const result = plan(
      family(),
      {},
      {
        selection: new Set(["root", "fork", "fork2"]),
        activeIds: new Map([["fork2", "open in process 7"]]),
      },
    );
    expect(ids(result.candidates)).toEqual([]);
    expect(reasonOf(result, "fork")).toMatchObject({ reason: "fork-parent" });
    expect(reasonOf(result, "root")).toMatchObject({ reason: "fork-parent" });
  });

  it("only for Codex: another kind's fork parent stays kept in any selection", () => {
    const claude = { kind: "claude" as const, root: "/claude" };
    const result = plan(
      [
        session("parent", 30, MB, { store: claude, neededBy: ["child"] }),
        session("child", 10, MB, { store: claude }),
      ],
      {},
      { selection: new Set(["parent", "child"]) },
    );
    expect(ids(result.candidates)).toEqual(["child"]);
  });
});
