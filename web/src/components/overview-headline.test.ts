import { describe, expect, it } from "vitest";
import type { GrowthResponse } from "../../../shared/api.js";
import { quotaState } from "../../../shared/quota.js";
import { describeRate, fastestNamespace, headline, weeklyGrowth } from "./overview-headline.js";

const MIB = 1024 ** 2;
const day = (n: number) => new Date(Date.UTC(2026, 10, n)).toISOString();

/** Ten daily points: /a grows 2 MiB a day, /b 1 MiB a day from day 5, "other" not at all. */
const GROWTH: GrowthResponse = {
  days: 30,
  points: Array.from({ length: 10 }, (_, i) => ({
    t: day(i + 1),
    bytes: 100 * MIB + 2 * MIB * i + Math.max(0, i - 4) * MIB,
    count: 10,
  })),
  byNamespace: {
    namespaces: ["/a", "/b"],
    otherNamespaces: 1,
    points: Array.from({ length: 10 }, (_, i) => ({
      t: day(i + 1),
      bytes: 0,
      series: [50 * MIB + 2 * MIB * i, 30 * MIB + Math.max(0, i - 4) * MIB, 20 * MIB],
    })),
  },
};

describe("weeklyGrowth and fastestNamespace", () => {
  it("measure the last 7 days: from the point a week before the last one", () => {
    // Day 10 against day 3: /a +14 MiB, /b +5 MiB (it started growing on day 6).
    expect(weeklyGrowth(GROWTH.points)).toBe(19 * MIB);
    expect(fastestNamespace(GROWTH.byNamespace)).toEqual({ namespace: "/a", bytes: 14 * MIB });
  });

  it("take a shorter history from its first point, and none without two points", () => {
    expect(weeklyGrowth(GROWTH.points.slice(0, 3))).toBe(4 * MIB);
    expect(weeklyGrowth(GROWTH.points.slice(0, 1))).toBeUndefined();
    expect(fastestNamespace(undefined)).toBeUndefined();
  });

  it("name no namespace when none grew", () => {
    const flat = {
      ...GROWTH.byNamespace!,
      points: GROWTH.byNamespace!.points.map((p) => ({ ...p, series: [1, 1, 1] })),
    };
    expect(fastestNamespace(flat)).toBeUndefined();
  });

  it("describeRate signs the rate per week", () => {
    expect(describeRate(19 * MIB)).toBe("+19.0 MiB/week");
    expect(describeRate(-300 * 1024)).toBe("−300 KiB/week");
    expect(describeRate(0)).toBe("no growth this week");
  });
});

describe("headline", () => {
  const base = { totalBytes: 200 * MIB, sessionCount: 1234 };
  /** A quota this full: 200 MiB of a limit set to make that ratio. */
  const at = (ratio: number) =>
    quotaState(200 * MIB, 1234, { maxTotalSizeBytes: Math.round((200 * MIB) / ratio) });

  it("past the warn level: the quota used, the week's growth and who grew, and what the policy would move now, urged", () => {
    const quota = quotaState(200 * MIB, 1234, { maxTotalSizeBytes: 210 * MIB });
    expect(quota.level).toBe("warn");
    const plan = { count: 12, bytes: 3 * MIB, byRule: { maxAgeDays: 12 }, maxAgeDays: 180 };
    expect(headline({ ...base, quota, growth: GROWTH, plan })).toEqual({
      used: "95% of the 210 MiB quota used (200 MiB in 1,234 sessions).",
      grew: "Grew 19.0 MiB this week, most in /a (+14.0 MiB).",
      policy: "The policy would move 12 sessions (3.00 MiB) to the trash now.",
      urgent: true,
    });
    expect(headline({ ...base, quota: at(1.2), growth: undefined, plan }).urgent).toBe(true);
  });

  it("far from full: says what is old and that nothing has to go yet, and urges nothing", () => {
    // The store: 9% of 20 GiB, a year of history, nearly all of it past the 180-day rule.
    const quota = quotaState(1.84 * 1024 * MIB, 20_045, { maxTotalSizeBytes: 20 * 1024 * MIB });
    const plan = {
      count: 19_959,
      bytes: 1.8 * 1024 * MIB,
      byRule: { maxAgeDays: 19_959 },
      maxAgeDays: 180,
      warnRatio: 0.9,
    };
    expect(
      headline({ totalBytes: 1.84 * 1024 * MIB, sessionCount: 20_045, quota, growth: undefined, plan }),
    ).toEqual({
      used: "9% of the 20.0 GiB quota used (1.84 GiB in 20,045 sessions).",
      grew: undefined,
      policy:
        "19,959 of 20,045 sessions have not been used for 180 days. Cleaning up would free 1.80 GiB; nothing has to go before the quota reaches 90%.",
      urgent: false,
    });
  });

  it("is calm up to the warn level, whatever it is set to, and urgent from it", () => {
    const plan = { count: 3, bytes: MIB, byRule: { maxAgeDays: 2, neverReopened: 1 }, maxAgeDays: 30 };
    const calm = headline({ ...base, quota: at(0.85), growth: undefined, plan });
    expect(calm.urgent).toBe(false);
    expect(calm.policy).toBe(
      "2 of 1,234 sessions have not been used for 30 days; 1 session was never reopened. Cleaning up would free 1.00 MiB; nothing has to go before the quota reaches 90%.",
    );
    const lowWarn = { maxTotalSizeBytes: 250 * MIB, infoRatio: 0.5, warnRatio: 0.8 };
    expect(
      headline({ ...base, quota: quotaState(200 * MIB, 1234, lowWarn), growth: undefined, plan }).urgent,
    ).toBe(true);
    expect(
      headline({
        ...base,
        quota: quotaState(190 * MIB, 1234, lowWarn),
        growth: undefined,
        plan: { ...plan, warnRatio: 0.8 },
      }).policy,
    ).toContain("nothing has to go before the quota reaches 80%");
  });

  it("is urgent when a namespace's or an agent's own limit chose sessions, though the whole is far from full", () => {
    for (const rule of ["namespaceQuota", "agentQuota"] as const) {
      const plan = { count: 4, bytes: MIB, byRule: { [rule]: 4 }, maxAgeDays: 180 };
      const said = headline({ ...base, quota: at(0.2), growth: undefined, plan });
      expect(said.urgent, rule).toBe(true);
      expect(said.policy).toBe("The policy would move 4 sessions (1.00 MiB) to the trash now.");
    }
  });

  it("says <1% for a sliver of the quota, as the quota card does, never 0%", () => {
    const quota = quotaState(MIB, 3, { maxTotalSizeBytes: 20 * 1024 * MIB });
    expect(
      headline({ totalBytes: MIB, sessionCount: 3, quota, growth: undefined, plan: undefined }).used,
    ).toBe("<1% of the 20.0 GiB quota used (1.00 MiB in 3 sessions).");
  });

  it("counts only what can move, and says how many more it chose cannot be moved now", () => {
    const plan = { count: 16, bytes: 3 * MIB, leftOut: 5, byRule: { maxAgeDays: 16 }, maxAgeDays: 180 };
    expect(headline({ ...base, quota: at(0.95), growth: undefined, plan }).policy).toBe(
      "The policy would move 16 sessions (3.00 MiB) to the trash now. 5 more it chose cannot be moved now.",
    );
    expect(headline({ ...base, quota: at(0.5), growth: undefined, plan }).policy).toBe(
      "16 of 1,234 sessions have not been used for 180 days. Cleaning up would free 3.00 MiB; nothing has to go before the quota reaches 90%. 5 more it chose cannot be moved now.",
    );
    expect(
      headline({ ...base, quota: undefined, growth: undefined, plan: { count: 0, bytes: 0, leftOut: 1 } })
        .policy,
    ).toBe("The policy would move nothing now. 1 more it chose cannot be moved now.");
  });

  it("without a size quota, history or plan yet, says what it knows and leaves the rest out", () => {
    expect(headline({ ...base, quota: undefined, growth: undefined, plan: undefined })).toEqual({
      used: "200 MiB in 1,234 sessions; no size quota is set.",
      grew: undefined,
      policy: undefined,
      urgent: false,
    });
    expect(
      headline({ ...base, quota: undefined, growth: undefined, plan: { count: 0, bytes: 0 } }).policy,
    ).toBe("The policy would move nothing now.");
    // No limit at all: nothing ever presses, and the sentence says why.
    const noLimits = quotaState(200 * MIB, 1234, {});
    const plan = { count: 2, bytes: MIB, byRule: { maxAgeDays: 2 }, maxAgeDays: 180 };
    expect(headline({ ...base, quota: noLimits, growth: undefined, plan })).toMatchObject({
      policy:
        "2 of 1,234 sessions have not been used for 180 days. Cleaning up would free 1.00 MiB; no quota asks for space.",
      urgent: false,
    });
    const invalid = headline({ ...base, quota: undefined, configInvalid: true, growth: undefined, plan });
    expect(invalid.used).toBe(
      "200 MiB in 1,234 sessions; the quota is unknown while the config file is invalid.",
    );
    expect(invalid.urgent).toBe(false);
    expect(invalid.policy).toBe(
      "2 of 1,234 sessions have not been used for 180 days. Cleaning up would free 1.00 MiB; the quota is unknown.",
    );
  });
});
