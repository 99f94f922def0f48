// The overview's first sentence: where the store stands against its quota, how fast it grew this
// week and where, and what the policy would move now. Pure: the page gives it what it fetched.
import type { GrowthResponse } from "../../../shared/api.js";
import { formatBytes } from "../../../shared/format.js";
import type { QuotaState } from "../../../shared/quota.js";

const WEEK_MS = 7 * 86_400_000;

/** A series' point index a week before its last one: the latest point at or before that time. */
function weekBefore(times: readonly string[]): number | undefined {
  if (times.length < 2) return undefined;
  const target = Date.parse(times.at(-1)!) - WEEK_MS;
  let found: number | undefined;
  for (let i = 0; i < times.length - 1; i++) if (Date.parse(times[i]!) <= target) found = i;
  // History shorter than a week: from its first point (the rate of what there is).
  return found ?? 0;
}

/** Bytes gained over the last 7 days of the series (negative when it shrank); undefined without history. */
export function weeklyGrowth(points: GrowthResponse["points"]): number | undefined {
  const from = weekBefore(points.map((p) => p.t));
  return from === undefined ? undefined : points.at(-1)!.bytes - points[from]!.bytes;
}

/** The namespace that gained the most over the last 7 days, if any gained ("other" is not one). */
export function fastestNamespace(
  byNamespace: GrowthResponse["byNamespace"],
): { namespace: string; bytes: number } | undefined {
  if (!byNamespace) return undefined;
  const { namespaces, points } = byNamespace;
  const from = weekBefore(points.map((p) => p.t));
  if (from === undefined) return undefined;
  let best: { namespace: string; bytes: number } | undefined;
  namespaces.forEach((namespace, i) => {
    const bytes = points.at(-1)!.series[i]! - points[from]!.series[i]!;
    if (bytes > 0 && (!best || bytes > best.bytes)) best = { namespace, bytes };
  });
  return best;
}

/** "+1.20 GB/week", "−300 KB/week", "no growth this week". */
export function describeRate(bytesPerWeek: number): string {
  if (bytesPerWeek === 0) return "no growth this week";
  return `${bytesPerWeek > 0 ? "+" : "−"}${formatBytes(Math.abs(bytesPerWeek))}/week`;
}

export interface HeadlineInput {
  totalBytes: number;
  sessionCount: number;
  /** Undefined while the config is invalid (then the quota is not known). */
  quota: QuotaState | undefined;
  /** The config file is invalid: its limits are not known. */
  configInvalid?: boolean;
  /** The 30-day series with its breakdown by namespace (undefined until it has come). */
  growth: GrowthResponse | undefined;
  /**
   * What the policy would move now (undefined until the plan has come); `leftOut`: how many it
   * chose that cannot be moved now (not in `count`).
   */
  plan: { count: number; bytes: number; leftOut?: number } | undefined;
}

/** The headline's parts, each a sentence; left out when its data has not come (or does not exist). */
export function headline({ totalBytes, sessionCount, quota, configInvalid, growth, plan }: HeadlineInput) {
  const sessions = `${sessionCount.toLocaleString("en-US")} session${sessionCount === 1 ? "" : "s"}`;
  const size = quota?.size;
  const used = size
    ? `${Math.floor(size.ratio * 100)}% of the ${formatBytes(size.limit)} quota used (${formatBytes(totalBytes)} in ${sessions}).`
    : `${formatBytes(totalBytes)} in ${sessions}; ${configInvalid ? "the quota is unknown while the config file is invalid" : "no size quota is set"}.`;
  const week = growth && weeklyGrowth(growth.points);
  const fastest = growth && fastestNamespace(growth.byNamespace);
  const grew =
    week === undefined
      ? undefined
      : week > 0
        ? `Grew ${formatBytes(week)} this week${fastest ? `, most in ${fastest.namespace} (+${formatBytes(fastest.bytes)})` : ""}.`
        : week < 0
          ? `Shrank ${formatBytes(-week)} this week.`
          : "No growth this week.";
  const leftOut = plan?.leftOut
    ? ` ${plan.leftOut.toLocaleString("en-US")} more it chose cannot be moved now.`
    : "";
  const policy =
    plan === undefined
      ? undefined
      : (plan.count === 0
          ? "The policy would move nothing now."
          : `The policy would move ${plan.count.toLocaleString("en-US")} session${plan.count === 1 ? "" : "s"} (${formatBytes(plan.bytes)}) to the trash now.`) +
        leftOut;
  return { used, grew, policy };
}
