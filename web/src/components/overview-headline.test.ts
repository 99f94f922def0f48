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

  it("says the quota used, the week's growth and who grew, and what the policy would move", () => {
    const quota = quotaState(200 * MIB, 1234, { maxTotalSizeBytes: 1000 * MIB });
    expect(headline({ ...base, quota, growth: GROWTH, plan: { count: 12, bytes: 3 * MIB } })).toEqual({
      used: "20% of the 1000 MiB quota used (200 MiB in 1,234 sessions).",
      grew: "Grew 19.0 MiB this week, most in /a (+14.0 MiB).",
      policy: "The policy would move 12 sessions (3.00 MiB) to the trash now.",
    });
  });

  it("counts only what can move, and says how many more it chose cannot be moved now", () => {
    const plan = { count: 16, bytes: 3 * MIB, leftOut: 5 };
    expect(headline({ ...base, quota: undefined, growth: undefined, plan }).policy).toBe(
      "The policy would move 16 sessions (3.00 MiB) to the trash now. 5 more it chose cannot be moved now.",
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
    });
    expect(
      headline({ ...base, quota: undefined, growth: undefined, plan: { count: 0, bytes: 0 } }).policy,
    ).toBe("The policy would move nothing now.");
    expect(
      headline({ ...base, quota: undefined, configInvalid: true, growth: undefined, plan: undefined }).used,
    ).toBe("200 MiB in 1,234 sessions; the quota is unknown while the config file is invalid.");
  });
});
