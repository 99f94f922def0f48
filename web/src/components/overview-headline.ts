// The overview's first sentence: where the store stands against its quota, how fast it grew this
// week and where, and what the policy would move now — urged only when space is short, described as
// what is old otherwise. Pure: the page gives it what it fetched.
import type { GrowthResponse } from "../../../shared/api.js";
import { formatBytes, formatPercent } from "../../../shared/format.js";
import type { CandidateRule, PlanSummary } from "../../../shared/plan.js";
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

/** The rules that choose sessions because a limit is reached (not because they are old). */
const LIMIT_RULES: readonly CandidateRule[] = [
  "namespaceQuota",
  "agentQuota",
  "maxTotalSizeBytes",
  "maxSessionCount",
];

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
   * chose that cannot be moved now (not in `count`); `byRule`: how many each rule chose;
   * `maxAgeDays`: the age rule's days (null: off); `warnRatio`: where the quota's warn level starts.
   */
  plan:
    | {
        count: number;
        bytes: number;
        leftOut?: number;
        byRule?: Partial<Record<CandidateRule, number>>;
        maxAgeDays?: number | null;
        warnRatio?: number;
      }
    | undefined;
}

/** The headline's `plan` from the plan's summary (`GET /api/plan/summary`), as the overview gives it. */
export function planOf(summary: PlanSummary): NonNullable<HeadlineInput["plan"]> {
  return {
    count: summary.candidateCount,
    bytes: summary.bytesToFree,
    leftOut: summary.leftOutCount ?? 0,
    ...(summary.candidatesByRule ? { byRule: summary.candidatesByRule } : {}),
    maxAgeDays: summary.policy.retention.maxAgeDays,
    warnRatio: summary.policy.quota.warnRatio,
  };
}

export interface Headline {
  used: string;
  grew: string | undefined;
  policy: string | undefined;
  /**
   * Space is short — the quota is at its warn level or over a limit, or a namespace's or an
   * agent's limit chose sessions — so a cleanup is the next step (a primary button). Otherwise the
   * headline says what is old and the cleanup is a quiet choice.
   */
  urgent: boolean;
}

const count = (n: number, noun = "session") => `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;

/**
 * The headline's parts, each a sentence (left out when its data has not come, or does not exist),
 * and whether a cleanup is urgent. Advice in proportion (macOS Storage's rule): while every limit
 * is below its warn level, what the policy would move is described as what is old, not urged.
 */
export function headline({
  totalBytes,
  sessionCount,
  quota,
  configInvalid,
  growth,
  plan,
}: HeadlineInput): Headline {
  const sessions = count(sessionCount);
  const size = quota?.size;
  // formatPercent, as the quota card, the CLI and pi say it: "<1%", never a "0%" beside "(<1%)".
  const used = size
    ? `${formatPercent(size.ratio)} of the ${formatBytes(size.limit)} quota used (${formatBytes(totalBytes)} in ${sessions}).`
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
  const overLimit = LIMIT_RULES.some((rule) => (plan?.byRule?.[rule] ?? 0) > 0);
  const short = quota?.level === "warn" || quota?.level === "critical";
  const urgent = !configInvalid && plan !== undefined && plan.count > 0 && (short || overLimit);
  const leftOut = plan?.leftOut
    ? ` ${plan.leftOut.toLocaleString("en-US")} more it chose cannot be moved now.`
    : "";
  let policy: string | undefined;
  if (plan === undefined) policy = undefined;
  else if (plan.count === 0) policy = "The policy would move nothing now." + leftOut;
  else if (urgent)
    policy =
      `The policy would move ${count(plan.count)} (${formatBytes(plan.bytes)}) to the trash now.` + leftOut;
  else policy = calmPolicy(plan, sessionCount, quota) + leftOut;
  return { used, grew, policy, urgent };
}

/** What is old, and that nothing has to go yet: "19,959 of 20,045 sessions have not been used for 180 days…". */
function calmPolicy(
  plan: NonNullable<HeadlineInput["plan"]>,
  sessionCount: number,
  quota: QuotaState | undefined,
) {
  const old = plan.byRule?.maxAgeDays ?? 0;
  const unopened = plan.byRule?.neverReopened ?? 0;
  const said: string[] = [];
  if (old > 0 && plan.maxAgeDays)
    said.push(
      `${old.toLocaleString("en-US")} of ${count(sessionCount)} ${old === 1 ? "has" : "have"} not been used for ${count(plan.maxAgeDays, "day")}`,
    );
  if (unopened > 0) said.push(`${count(unopened)} ${unopened === 1 ? "was" : "were"} never reopened`);
  const what =
    said.length > 0 ? `${said.join("; ")}.` : `The policy would move ${count(plan.count)} if you cleaned up.`;
  const limited = quota?.size !== undefined || quota?.count !== undefined;
  const warnAt = Math.round((plan.warnRatio ?? 0.9) * 100);
  const wait = !quota
    ? "the quota is unknown"
    : limited
      ? `nothing has to go before the quota reaches ${warnAt}%`
      : "no quota asks for space";
  return `${what} Cleaning up would free ${formatBytes(plan.bytes)}; ${wait}.`;
}
