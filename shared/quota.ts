// Quota levels (warn at 70 %, critical at 90 %, over at 100 %): size is the primary measure, count the secondary, and
// the overall level is the higher of the two.
import { formatBytes, formatPercent } from "./format.js";
import type { StoreKind } from "./session-record.js";

// No zod here: `session-retention status` runs this on a path where start-up time matters; payload
// schemas can use `z.enum(QUOTA_LEVELS)`.

export const QUOTA_LEVELS = ["ok", "info", "warn", "critical"] as const;
export type QuotaLevel = (typeof QUOTA_LEVELS)[number];

export interface QuotaLimits {
  /** No limit when null, undefined or 0 (the config says null). */
  maxTotalSizeBytes?: number | null;
  /** No limit when null, undefined or 0. */
  maxSessionCount?: number | null;
  /** Default 0.7. */
  infoRatio?: number;
  /** Default 0.9. */
  warnRatio?: number;
}

export interface QuotaMeasure {
  used: number;
  limit: number;
  /** used / limit. */
  ratio: number;
  level: QuotaLevel;
}

export interface QuotaState {
  size?: QuotaMeasure;
  count?: QuotaMeasure;
  /** The higher of the size and count levels; "ok" without limits. */
  level: QuotaLevel;
}

/** The level for a ratio: info from `infoRatio`, warn from `warnRatio`, critical from 1.0 (at the limit). */
export function levelForRatio(ratio: number, infoRatio = 0.7, warnRatio = 0.9): QuotaLevel {
  if (ratio >= 1) return "critical";
  if (ratio >= warnRatio) return "warn";
  if (ratio >= infoRatio) return "info";
  return "ok";
}

export const higherLevel = (a: QuotaLevel, b: QuotaLevel): QuotaLevel =>
  QUOTA_LEVELS.indexOf(a) >= QUOTA_LEVELS.indexOf(b) ? a : b;

function measure(
  used: number,
  limit: number | null | undefined,
  info: number,
  warn: number,
): QuotaMeasure | undefined {
  if (!limit || limit <= 0) return undefined;
  const ratio = used / limit;
  return { used, limit, ratio, level: levelForRatio(ratio, info, warn) };
}

/** Where a store stands against its limits. Pure: the CLI, the dashboard and the extension agree. */
export function quotaState(totalBytes: number, sessionCount: number, limits: QuotaLimits): QuotaState {
  const info = limits.infoRatio ?? 0.7;
  const warn = limits.warnRatio ?? 0.9;
  const size = measure(totalBytes, limits.maxTotalSizeBytes, info, warn);
  const count = measure(sessionCount, limits.maxSessionCount, info, warn);
  return {
    ...(size ? { size } : {}),
    ...(count ? { count } : {}),
    level: higherLevel(size?.level ?? "ok", count?.level ?? "ok"),
  };
}

/**
 * Where each agent with limits of its own (`quota.agents`) stands against them, with the global
 * thresholds. Agents without a limit are left out.
 */
export function agentQuotaStates(
  agents: readonly { kind: StoreKind; totalBytes: number; sessionCount: number }[],
  quota: Pick<QuotaLimits, "infoRatio" | "warnRatio"> & { agents: Partial<Record<StoreKind, QuotaLimits>> },
): Partial<Record<StoreKind, QuotaState>> {
  const states: Partial<Record<StoreKind, QuotaState>> = {};
  for (const agent of agents) {
    const limits = quota.agents[agent.kind];
    if (!limits?.maxTotalSizeBytes && !limits?.maxSessionCount) continue;
    states[agent.kind] = quotaState(agent.totalBytes, agent.sessionCount, {
      ...limits,
      infoRatio: quota.infoRatio,
      warnRatio: quota.warnRatio,
    });
  }
  return states;
}

/** "18.4 GiB of 20.0 GiB (92%) · 1204 of 2000 sessions (60%)" — or "no limits set". */
export function describeQuota(state: QuotaState): string {
  const parts: string[] = [];
  if (state.size)
    parts.push(
      `${formatBytes(state.size.used)} of ${formatBytes(state.size.limit)} (${formatPercent(state.size.ratio)})`,
    );
  if (state.count)
    parts.push(`${state.count.used} of ${state.count.limit} sessions (${formatPercent(state.count.ratio)})`);
  return parts.length ? parts.join(" · ") : "no limits set";
}
