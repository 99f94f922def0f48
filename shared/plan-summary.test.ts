import { describe, expect, it } from "vitest";
import { ConfigSchema } from "./config.js";
import { PlanSummarySchema, summarizePlan } from "./plan.js";
import { evaluatePolicy, type PolicySession } from "./policy.js";

const NOW = new Date("2026-06-01T12:00:00.000Z");
const DAY = 86_400_000;

function session(id: string, daysAgo: number, createdDaysAgo = daysAgo, user = 3): PolicySession {
  const at = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();
  return {
    id,
    path: `/store/--work--/${id}.jsonl`,
    store: { kind: "pi", root: "/store" },
    namespace: "/work",
    sizeBytes: 1000,
    createdAt: at(createdDaysAgo),
    modifiedAt: at(daysAgo),
    lastUsedAt: at(daysAgo),
    messageCounts: { user, assistant: user, toolResult: 0, other: 0 },
  };
}

describe("summarizePlan", () => {
  it("counts the candidates each rule chose, so a headline can tell old from over a limit", () => {
    const policy = ConfigSchema.parse({
      quota: { maxTotalSizeBytes: null, maxSessionCount: 3 },
      retention: {
        maxAgeDays: 180,
        minKeepRecentCount: 0,
        keepLastPerNamespace: 0,
        neverReopened: { olderThanDays: 30, maxUserMessages: 1, activeMinutes: 60 },
      },
    });
    const sessions = [
      session("old-1", 300),
      session("old-2", 200),
      session("unopened", 40, 40, 1),
      ...["a", "b", "c", "d"].map((id, i) => session(id, 5 + i)),
    ];
    const summary = summarizePlan(evaluatePolicy({ sessions, policy, now: NOW }));
    expect(PlanSummarySchema.parse(summary).candidatesByRule).toEqual({
      maxAgeDays: 2,
      neverReopened: 1,
      maxSessionCount: 2,
    });
    expect(summary.candidateCount).toBe(5);
  });
});
