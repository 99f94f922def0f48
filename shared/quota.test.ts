import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "./config.js";
import { describeQuota, higherLevel, levelForRatio, quotaState } from "./quota.js";

describe("levelForRatio (70 / 90 / 100 %)", () => {
  it.each([
    [0, "ok"],
    [0.699, "ok"],
    [0.7, "info"],
    [0.899, "info"],
    [0.9, "warn"],
    [0.999, "warn"],
    [1, "critical"],
    [3, "critical"],
  ] as const)("%s → %s", (ratio, level) => {
    expect(levelForRatio(ratio)).toBe(level);
  });

  it("uses configured ratios", () => {
    expect(levelForRatio(0.5, 0.5, 0.8)).toBe("info");
    expect(levelForRatio(0.8, 0.5, 0.8)).toBe("warn");
  });
});

describe("quotaState", () => {
  const GB = 1024 ** 3;

  it("measures size and count, and the overall level is the higher one", () => {
    const state = quotaState(19 * GB, 1500, { maxTotalSizeBytes: 20 * GB, maxSessionCount: 2000 });
    expect(state.size).toEqual({ used: 19 * GB, limit: 20 * GB, ratio: 0.95, level: "warn" });
    expect(state.count).toEqual({ used: 1500, limit: 2000, ratio: 0.75, level: "info" });
    expect(state.level).toBe("warn");
    expect(quotaState(1 * GB, 2000, { maxTotalSizeBytes: 20 * GB, maxSessionCount: 2000 }).level).toBe(
      "critical",
    );
  });

  it("has no measure for a missing or zero limit, and is ok without limits", () => {
    expect(quotaState(10 * GB, 10, {})).toEqual({ level: "ok" });
    const sizeOnly = quotaState(10 * GB, 10, { maxTotalSizeBytes: 10 * GB, maxSessionCount: 0 });
    expect(sizeOnly.count).toBeUndefined();
    expect(sizeOnly.level).toBe("critical");
  });

  it("orders levels ok < info < warn < critical", () => {
    expect(higherLevel("info", "warn")).toBe("warn");
    expect(higherLevel("critical", "ok")).toBe("critical");
    expect(higherLevel("ok", "ok")).toBe("ok");
  });
});

describe("the default limits", () => {
  const GIB = 1024 ** 3;

  // Issue 17: a default count limit of 2,000 called a store at 9 % of its size quota "critical".
  it("judge a store by its size alone: 20,000 sessions at 9 % of the size quota are ok", () => {
    const state = quotaState(0.09 * 20 * GIB, 20_000, DEFAULT_CONFIG.quota);
    expect(state.count).toBeUndefined();
    expect(state.level).toBe("ok");
  });

  it("still rise with the size quota", () => {
    expect(quotaState(19 * GIB, 10, DEFAULT_CONFIG.quota).level).toBe("warn");
    expect(quotaState(20 * GIB, 10, DEFAULT_CONFIG.quota).level).toBe("critical");
  });
});

describe("describeQuota", () => {
  it("says the percentage the dashboard's gauge says (formatPercent): 71 of 2,000 is 4%, not a floored 3%", () => {
    const state = quotaState(19.2 * 1024 ** 2, 71, {
      maxTotalSizeBytes: 572 * 1024 ** 2,
      maxSessionCount: 2000,
    });
    expect(describeQuota(state)).toBe("19.2 MiB of 572 MiB (3%) · 71 of 2000 sessions (4%)");
  });
});
