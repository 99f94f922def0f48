// The growth series with its latest point following the live look. The server keeps at most one
// point per hour (a later look in the same hour replaces it: addGrowthPoint in shared/growth.ts),
// and the breakdown by namespace on each day's last point; a reload would show this hour's point
// with the look's total. So the page does the same with what it holds: this hour's point (and
// today's breakdown) takes the live total, or is added when the series has none yet.
import type { GrowthResponse, SummaryResponse } from "../../../shared/api.js";
import { addGrowthPoint, growthSeries } from "../../../shared/growth.js";

type Look = Pick<SummaryResponse, "summary" | "namespaces">;

/** `growth` as a reload at `now` would show it, given the look `look` (the page's latest). */
export function withLiveTotal(growth: GrowthResponse, look: Look, now: Date): GrowthResponse {
  const { totalBytes, sessionCount } = look.summary;
  const named = growth.namespace === undefined ? undefined : namespaceUsage(look, growth.namespace);
  const point = named ?? { bytes: totalBytes, count: sessionCount };
  const series = growthSeries(addGrowthPoint(growth.points, point, now), growth.days, now);
  const points =
    series.length === growth.points.length && sameSeries(series, growth.points) ? growth.points : series;
  if (!growth.byNamespace) return points === growth.points ? growth : { ...growth, points };
  const byNamespace = withLiveBreakdown(growth.byNamespace, look, totalBytes, points.at(-1)!.t);
  return points === growth.points && byNamespace === growth.byNamespace
    ? growth
    : { ...growth, points, byNamespace };
}

function namespaceUsage(look: Look, namespace: string) {
  const usage = look.namespaces.find((n) => n.namespace === namespace);
  return { bytes: usage?.totalBytes ?? 0, count: usage?.sessionCount ?? 0 };
}

const sameSeries = (a: GrowthResponse["points"], b: GrowthResponse["points"]) =>
  a.every((p, i) => p.t === b[i]!.t && p.bytes === b[i]!.bytes && p.count === b[i]!.count);

/**
 * The stacked series' last point, today's (its points are each day's last): the same namespaces,
 * each at its live size, "other" the rest of the total, so the stack still adds up to it.
 */
function withLiveBreakdown(
  breakdown: NonNullable<GrowthResponse["byNamespace"]>,
  look: Look,
  totalBytes: number,
  t: string,
): NonNullable<GrowthResponse["byNamespace"]> {
  const sizes = new Map(look.namespaces.map((n) => [n.namespace, n.totalBytes]));
  const series = breakdown.namespaces.map((name) => sizes.get(name) ?? 0);
  if (breakdown.otherNamespaces > 0)
    series.push(Math.max(0, totalBytes - series.reduce((sum, bytes) => sum + bytes, 0)));
  const last = breakdown.points.at(-1);
  const today = last !== undefined && last.t.slice(0, 10) === t.slice(0, 10);
  if (today && last.t === t && last.bytes === totalBytes && last.series.every((b, i) => b === series[i]))
    return breakdown;
  const point = { t, bytes: totalBytes, series };
  return { ...breakdown, points: [...breakdown.points.slice(0, today ? -1 : undefined), point] };
}
