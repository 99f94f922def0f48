// One look at the stores, as the extension shows it: totals, the quota level and mode, the forecast
// and the policy's candidates. Made from the same inputs as the CLI's `plan` (gatherPlanInputs),
// so the status line, `/session-retention` and the dashboard never disagree.
import type { QuotaMode } from "../shared/config.js";
import { type Forecast, forecast } from "../shared/growth.js";
import type { Candidate, Plan } from "../shared/plan.js";
import { type QuotaState, quotaState } from "../shared/quota.js";
import { gatherPlanInputs, type PlanInputs, planFor } from "../server/plan/plan-inputs.js";
import { invalidConfigText } from "../server/cli/config-command.js";
import { growthFile, readGrowth } from "../server/state/growth-store.js";
import { statePaths } from "../server/state/state-dir.js";
import { piAdapter } from "../server/stores/pi/adapter.js";
import { agentshAdapter } from "../server/stores/agentsh/adapter.js";

/**
 * What pi's quota is about, unless the config names its stores: pi's own (and agentsh's, beside it
 * since the start) — never another agent's, whose sessions pi's user did not ask to count.
 */
export const PI_STORES = [piAdapter.kind, agentshAdapter.kind];

/** What a look found, small and plain (it crosses from the worker thread by structured clone). */
export interface Look {
  lookedAt: string;
  /** `enabled: false` in the config: the extension stays silent and never cleans. */
  enabled: boolean;
  /** Set when the config is invalid: read-only, the level cannot be judged against a policy. */
  invalidConfig?: string;
  configPath: string;
  mode: QuotaMode;
  quota: QuotaState;
  totalBytes: number;
  sessionCount: number;
  forecast?: Forecast;
  /** The policy's candidates: how many, their bytes, the first few in the policy's order. */
  candidates: { count: number; bytes: number; first: Candidate[] };
  /** Sessions that may be moved at all: the candidates, and those kept only as "within policy". */
  removable: number;
  /** The plan's warnings in words ("quota cannot be met: …"). */
  warnings: string[];
  /** Things said plainly along the way (skipped locations, unreadable markers). */
  notes: string[];
}

export interface LookOptions {
  env?: NodeJS.ProcessEnv;
  now?: Date;
  /** How many candidates `first` names. Default 5. */
  firstN?: number;
}

/** A look, with the inputs and plan it came from (for the clean wizard and auto-clean). */
export interface LookResult {
  look: Look;
  inputs: PlanInputs;
  plan?: Plan;
}

export async function lookAtStores(options: LookOptions = {}): Promise<LookResult> {
  const env = options.env ?? process.env;
  const now = options.now ?? new Date();
  const inputs = await gatherPlanInputs({ env, discover: PI_STORES });
  const { config, report } = inputs;
  const { totalBytes, sessionCount } = report.summary;
  const plan = config.ok ? planFor({ ...inputs, config }, now) : undefined;
  const quota = config.ok
    ? quotaState(totalBytes, sessionCount, config.config.quota)
    : ({ level: "ok" } satisfies QuotaState);
  const ahead = forecast(
    readGrowth(growthFile(statePaths(env).dir, report.stores)),
    config.ok ? config.config.quota.maxTotalSizeBytes : null,
    now,
  );
  const candidates = plan?.candidates ?? [];
  const look: Look = {
    lookedAt: now.toISOString(),
    enabled: config.ok ? config.config.enabled : true,
    ...(config.ok ? {} : { invalidConfig: invalidConfigText(config) }),
    configPath: config.path,
    mode: config.ok ? config.config.mode : "warn-only",
    quota,
    totalBytes,
    sessionCount,
    ...(ahead ? { forecast: ahead } : {}),
    candidates: {
      count: candidates.length,
      bytes: plan?.bytesToFree ?? 0,
      first: candidates.slice(0, options.firstN ?? 5),
    },
    removable: candidates.length + (plan?.kept.filter((k) => k.reason === "within-policy").length ?? 0),
    warnings: plan?.warnings.map((w) => w.message) ?? [],
    notes: inputs.notes,
  };
  return { look, inputs, ...(plan ? { plan } : {}) };
}
