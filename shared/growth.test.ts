import { describe, expect, it } from "vitest";
import {
  addGrowthPoint,
  backfillGrowth,
  forecast,
  type GrowthPoint,
  growthByNamespace,
  growthSeries,
} from "./growth.js";

const DAY = 86_400_000;
const NOW = new Date("2026-06-30T12:30:00.000Z");
const at = (daysAgo: number, hour = 12) =>
  new Date(Date.UTC(2026, 5, 30, hour) - daysAgo * DAY).toISOString();

describe("addGrowthPoint", () => {
  it("coalesces to one point per hour: a later scan in the same hour replaces it", () => {
    let points: GrowthPoint[] = [];
    points = addGrowthPoint(points, { bytes: 100, count: 1 }, new Date("2026-06-30T12:05:00Z"));
    points = addGrowthPoint(points, { bytes: 150, count: 2 }, new Date("2026-06-30T12:55:00Z"));
    expect(points).toEqual([{ t: "2026-06-30T12:00:00.000Z", bytes: 150, count: 2 }]);
    points = addGrowthPoint(points, { bytes: 160, count: 2 }, new Date("2026-06-30T13:01:00Z"));
    expect(points.map((p) => p.t)).toEqual(["2026-06-30T12:00:00.000Z", "2026-06-30T13:00:00.000Z"]);
  });

  it("keeps hourly points for 30 days, then the last of each day, and nothing past 400 days", () => {
    const ns = { "/a": [1, 1] as [number, number] };
    const old: GrowthPoint[] = [
      { t: at(500), bytes: 1, count: 1 },
      { t: at(40, 10), bytes: 2, count: 1, ns },
      { t: at(40, 20), bytes: 3, count: 1, ns },
      { t: at(2, 10), bytes: 4, count: 1, ns },
      { t: at(2, 20), bytes: 5, count: 1, ns },
    ];
    const points = addGrowthPoint(old, { bytes: 6, count: 1, ns }, NOW);
    expect(points.map((p) => p.bytes)).toEqual([3, 4, 5, 6]);
    // The namespace breakdown stays only on each day's last point.
    expect(points.map((p) => p.ns !== undefined)).toEqual([true, false, true, true]);
  });
});

describe("backfillGrowth", () => {
  it("rebuilds 30 daily points from created times and sizes, marked as estimated", () => {
    const sessions = [
      { createdAt: at(45), sizeBytes: 100, namespace: "/a" },
      { createdAt: at(10), sizeBytes: 50, namespace: "/b" },
      { createdAt: at(0), sizeBytes: 7, namespace: "/a" },
    ];
    const points = backfillGrowth(sessions, NOW);
    expect(points).toHaveLength(30);
    expect(points.every((p) => p.estimated)).toBe(true);
    expect(points[0]).toMatchObject({ bytes: 100, count: 1 });
    expect(points.at(-1)).toMatchObject({ bytes: 150, count: 2, ns: { "/a": [100, 1], "/b": [50, 1] } });
  });
});

describe("forecast", () => {
  const series = (bytesPerDay: number) =>
    Array.from({ length: 8 }, (_, i): GrowthPoint => ({
      t: at(7 - i),
      bytes: 1000 + bytesPerDay * i,
      count: 1,
    }));

  it("days until the size limit at the 7-day rate", () => {
    expect(forecast(series(100), 2700, NOW)).toEqual({ ratePerDay: 100, daysToFull: 10 });
  });

  it("already over the limit: 0 days", () => {
    expect(forecast(series(100), 1500, NOW)?.daysToFull).toBe(0);
  });

  it("none when not growing, when shrinking, or without a limit", () => {
    expect(forecast(series(0), 5000, NOW)).toEqual({ ratePerDay: 0, daysToFull: null });
    expect(forecast(series(-50), 5000, NOW)?.daysToFull).toBeNull();
    expect(forecast(series(100), null, NOW)?.daysToFull).toBeNull();
  });

  it("says when the rate starts from a backfilled estimate", () => {
    const points = series(100).map((p, i) => (i === 0 ? { ...p, estimated: true } : p));
    expect(forecast(points, 2700, NOW)).toEqual({ ratePerDay: 100, daysToFull: 10, estimated: true });
  });

  it("nothing with less than a day of history", () => {
    expect(forecast([{ t: at(0), bytes: 1, count: 1 }], 10, NOW)).toBeUndefined();
    expect(forecast([], 10, NOW)).toBeUndefined();
  });
});

describe("growthSeries", () => {
  it("selects the window, in total or for one namespace, and keeps the estimated mark", () => {
    const points: GrowthPoint[] = [
      { t: at(20), bytes: 1, count: 1, estimated: true, ns: { "/a": [1, 1] } },
      { t: at(3), bytes: 5, count: 2, ns: { "/a": [2, 1], "/b": [3, 1] } },
      { t: at(0), bytes: 6, count: 2 },
    ];
    expect(growthSeries(points, 7, NOW).map((p) => p.bytes)).toEqual([5, 6]);
    expect(growthSeries(points, 30, NOW, "/a")).toEqual([
      { t: at(20), bytes: 1, count: 1, estimated: true },
      { t: at(3), bytes: 2, count: 1 },
    ]);
  });
});

describe("growthByNamespace", () => {
  const ns = (entries: Array<[string, number]>) =>
    Object.fromEntries(entries.map(([name, bytes]) => [name, [bytes, 1] as [number, number]]));
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

  it("stacks the namespaces of the daily points, largest at the latest point first, summing to the total", () => {
    const points: GrowthPoint[] = [
      { t: at(40), bytes: 999, count: 1, ns: ns([["/old", 999]]) }, // outside 30 days
      {
        t: at(3),
        bytes: 30,
        count: 2,
        ns: ns([
          ["/a", 20],
          ["/b", 10],
        ]),
        estimated: true,
      },
      { t: at(2, 10), bytes: 35, count: 2 }, // an hourly point: no breakdown, not stacked
      {
        t: at(1),
        bytes: 60,
        count: 3,
        ns: ns([
          ["/a", 20],
          ["/b", 40],
        ]),
      },
    ];
    const growth = growthByNamespace(points, 30, NOW);
    expect(growth.namespaces).toEqual(["/b", "/a"]);
    expect(growth.otherNamespaces).toBe(0);
    expect(growth.points).toEqual([
      { t: at(3), bytes: 30, series: [10, 20], estimated: true },
      { t: at(1), bytes: 60, series: [40, 20] },
    ]);
    for (const p of growth.points) expect(sum(p.series)).toBe(p.bytes);
  });

  it("folds all but the top namespaces into 'other', which takes whatever makes the total", () => {
    const names = Array.from({ length: 12 }, (_, i) => `/n${i}`);
    const breakdown = ns(names.map((name, i) => [name, (i + 1) * 10]));
    const total = sum(Object.values(breakdown).map(([b]) => b));
    const growth = growthByNamespace([{ t: at(1), bytes: total, count: 12, ns: breakdown }], 7, NOW, 8);
    expect(growth.namespaces).toEqual(["/n11", "/n10", "/n9", "/n8", "/n7", "/n6", "/n5", "/n4"]);
    expect(growth.otherNamespaces).toBe(4);
    expect(growth.points[0]!.series.at(-1)).toBe(10 + 20 + 30 + 40);
    expect(sum(growth.points[0]!.series)).toBe(total);
  });

  it("never makes an 'other' of a single namespace, and ranks one that is gone by its peak", () => {
    const points: GrowthPoint[] = [
      {
        t: at(2),
        bytes: 100,
        count: 2,
        ns: ns([
          ["/gone", 90],
          ["/a", 10],
        ]),
      },
      { t: at(1), bytes: 5, count: 1, ns: ns([["/a", 5]]) },
    ];
    const growth = growthByNamespace(points, 30, NOW, 1);
    expect(growth.namespaces).toEqual(["/a", "/gone"]);
    expect(growth.otherNamespaces).toBe(0);
    expect(growth.points.map((p) => p.series)).toEqual([
      [10, 90],
      [5, 0],
    ]);
  });
});
