import { describe, expect, it } from "vitest";
import { ConfigSchema } from "./config.js";
import { evaluatePolicy, type PolicySession } from "./policy.js";
import { verdictLabel, verdictLabels, verdictsOf, wouldClean } from "./verdict.js";

const NOW = new Date("2026-06-01T12:00:00.000Z");
const DAY = 24 * 3600 * 1000;
const ago = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();

function session(id: string, daysAgo: number, extra: Partial<PolicySession> = {}): PolicySession {
  return {
    id,
    path: `/store/--work--/${id}.jsonl`,
    store: { kind: "pi", root: "/store" },
    namespace: "/work",
    sizeBytes: 1000,
    createdAt: ago(daysAgo + 1),
    modifiedAt: ago(daysAgo),
    lastUsedAt: ago(daysAgo),
    messageCounts: { user: 3, assistant: 3, toolResult: 0, other: 0 },
    ...extra,
  };
}

const policy = ConfigSchema.parse({
  quota: { maxTotalSizeBytes: null, maxSessionCount: null },
  retention: { maxAgeDays: 30, minKeepRecentCount: 2, keepLastPerNamespace: 0 },
  protection: { protectedPatterns: ["*keep-me*"] },
});

describe("the policy's verdict per session", () => {
  const sessions = [
    session("new-1", 1),
    session("new-2", 2),
    session("mid", 10),
    session("old", 90),
    session("old-keep-me", 95, { path: "/store/--work--/old-keep-me.jsonl" }),
  ];
  const plan = evaluatePolicy({ sessions, policy, mode: "hard-block", now: NOW });
  const verdicts = verdictsOf(plan);

  it("gives every session one verdict, the plan's rule or keep reason", () => {
    expect(Object.fromEntries(verdicts)).toEqual({
      "new-1": "recent",
      "new-2": "recent",
      mid: "within-policy",
      old: "maxAgeDays",
      "old-keep-me": "protected",
    });
  });

  it("says each in a few words, with the policy's own numbers", () => {
    expect(verdictLabel("maxAgeDays", policy)).toBe("would clean · older than 30 days");
    expect(verdictLabel("recent", policy)).toBe("kept · among the 2 most recent");
    expect(verdictLabel("protected", policy)).toBe("kept · protected");
    expect(verdictLabel("within-policy", policy)).toBe("kept · no rule applies");
  });

  it("counts as cleaned exactly the plan's candidates", () => {
    const cleaned = [...verdicts].filter(([, code]) => wouldClean(code)).map(([id]) => id);
    expect(cleaned).toEqual(plan.candidates.map((c) => c.id));
    expect(wouldClean(undefined)).toBe(false);
    expect(wouldClean("pinned")).toBe(false);
  });

  it("labels every rule and keep reason once, for the table's envelope", () => {
    const labels = verdictLabels(policy);
    expect(Object.keys(labels)).toHaveLength(14);
    expect(labels.maxSessionCount).toMatch(/^would clean · over the count quota/);
    expect(labels["last-in-namespace"]).toMatch(/^kept · /);
    expect(labels["cannot-move"]).toBe("kept · cannot be moved now");
  });
});
