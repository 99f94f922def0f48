import { describe, expect, it } from "vitest";
import type { GrowthResponse, SummaryResponse } from "../../../shared/api.js";
import { addGrowthPoint, growthByNamespace, growthSeries, type GrowthPoint } from "../../../shared/growth.js";
import { withLiveTotal } from "./live-growth.js";

const at = (iso: string) => new Date(iso);
const look = (totalBytes: number, sessionCount: number, namespaces: Record<string, number>) =>
  ({
    summary: { totalBytes, sessionCount },
    namespaces: Object.entries(namespaces).map(([namespace, bytes]) => ({
      namespace,
      totalBytes: bytes,
      sessionCount: 1,
    })),
  }) as unknown as SummaryResponse;

/** The server's stored points: three days, the last one with two hourly points today (10:00, 11:00). */
const STORED: GrowthPoint[] = [
  {
    t: "2026-03-08T23:00:00.000Z",
    bytes: 600,
    count: 6,
    estimated: true,
    ns: { "/a": [400, 4], "/b": [200, 2] },
  },
  { t: "2026-03-09T18:00:00.000Z", bytes: 700, count: 7, ns: { "/a": [450, 4], "/b": [250, 3] } },
  { t: "2026-03-10T10:00:00.000Z", bytes: 800, count: 8 },
  {
    t: "2026-03-10T11:00:00.000Z",
    bytes: 900,
    count: 9,
    ns: { "/a": [500, 5], "/b": [300, 3], "/c": [100, 1] },
  },
];

/** What GET /api/growth answers at `now` for `points` (the same functions the server uses). */
const answer = (points: GrowthPoint[], now: Date): GrowthResponse => ({
  days: 30,
  points: growthSeries(points, 30, now),
  byNamespace: growthByNamespace(points, 30, now, 1), // /a, and /b and /c as "other"
});

describe("the growth chart's live point", () => {
  it("this hour's point takes the live total: the same series a reload would show", () => {
    const now = at("2026-03-10T11:40:00.000Z");
    const live = look(1000, 10, { "/a": 550, "/b": 300, "/c": 150 });
    const shown = withLiveTotal(answer(STORED, now), live, now);
    // A reload: the server records this hour's point from the same look, then answers.
    const recorded = addGrowthPoint(
      STORED,
      { bytes: 1000, count: 10, ns: { "/a": [550, 5], "/b": [300, 3], "/c": [150, 1] } },
      now,
    );
    const reloaded = answer(recorded, now);
    expect(shown.points).toEqual(reloaded.points);
    expect(shown.points.at(-1)).toEqual({ t: "2026-03-10T11:00:00.000Z", bytes: 1000, count: 10 });
    expect(shown.points).toHaveLength(4);
    // Stacked: today's point is the live breakdown, "other" the rest of the total.
    expect(shown.byNamespace).toEqual(reloaded.byNamespace);
    expect(shown.byNamespace!.points.at(-1)!.series).toEqual([550, 450]);
  });

  it("a new hour (and a new day) adds a point rather than moving the last one", () => {
    const served = at("2026-03-10T11:40:00.000Z");
    const now = at("2026-03-11T00:10:00.000Z");
    const live = look(950, 9, { "/a": 520, "/b": 300, "/c": 130 });
    const shown = withLiveTotal(answer(STORED, served), live, now);
    expect(shown.points.map((p) => p.bytes)).toEqual([600, 700, 800, 900, 950]);
    expect(shown.points.at(-1)!.t).toBe("2026-03-11T00:00:00.000Z");
    const stacked = shown.byNamespace!.points;
    expect(stacked.map((p) => p.t.slice(0, 10))).toEqual([
      "2026-03-08",
      "2026-03-09",
      "2026-03-10",
      "2026-03-11",
    ]);
    expect(stacked.at(-1)!.series).toEqual([520, 430]);
    // The stack adds up to the total.
    expect(stacked.at(-1)!.series.reduce((a, b) => a + b, 0)).toBe(950);
    // The estimated point stays estimated.
    expect(shown.points[0]!.estimated).toBe(true);
  });

  it("the same look again changes nothing: the very same object (the chart is not redrawn)", () => {
    const now = at("2026-03-10T11:40:00.000Z");
    const served = answer(STORED, now);
    expect(withLiveTotal(served, look(900, 9, { "/a": 500, "/b": 300, "/c": 100 }), now)).toBe(served);
  });

  it("a namespace's own series follows that namespace's size", () => {
    const now = at("2026-03-10T11:40:00.000Z");
    const served: GrowthResponse = {
      days: 30,
      namespace: "/a",
      points: growthSeries(STORED, 30, now, "/a"),
    };
    const shown = withLiveTotal(served, look(1000, 10, { "/a": 610, "/b": 390 }), now);
    expect(shown.points.map((p) => p.bytes)).toEqual([400, 450, 610]);
  });
});
